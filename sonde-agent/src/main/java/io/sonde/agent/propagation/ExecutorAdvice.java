package io.sonde.agent.propagation;

import net.bytebuddy.asm.Advice;

/**
 * Byte Buddy advice for {@code weaver=bytebuddy}: the entry of a worker loop. (The JDK's hand-off
 * points and, with the default weaver, the worker loops are woven by {@link
 * io.sonde.agent.instrument.HookWeaver}: see {@link ExecutorInstrumenter}.)
 */
public final class ExecutorAdvice {

    private ExecutorAdvice() {}

    /** Entry of a worker loop: see {@link Propagation#workerLoop()}. */
    public static final class WorkerLoop {
        private WorkerLoop() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter() {
            Propagation.workerLoop();
        }
    }
}
