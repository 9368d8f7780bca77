package io.sonde.agent.propagation;

import java.util.concurrent.Callable;
import net.bytebuddy.asm.Advice;

/**
 * Advice woven into the executors' task hand-off methods: replaces the task argument with a
 * wrapper carrying the submitter's trace position, so the task's execution starts a child trace.
 * When the submitter is not inside a trace the task passes unchanged.
 */
public final class ExecutorAdvice {

    private ExecutorAdvice() {}

    /** For methods whose first parameter is a {@link Runnable}. */
    public static final class WrapRunnable {
        private WrapRunnable() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Propagation.wrap(task);
        }
    }

    /** For methods whose first parameter is a {@link Callable}. */
    public static final class WrapCallable {
        private WrapCallable() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
            task = Propagation.wrap(task);
        }
    }
}
