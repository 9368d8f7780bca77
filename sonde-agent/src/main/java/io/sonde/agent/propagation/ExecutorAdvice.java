package io.sonde.agent.propagation;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Advice woven into the JDK's hand-off points (see {@link ExecutorInstrumenter}); each calls
 * {@link Propagation}. Argument types are dynamic where one advice serves parameters of several
 * declared types: {@link ContextTask} implements all of them.
 */
public final class ExecutorAdvice {

    private ExecutorAdvice() {}

    /** The task in the first parameter is wrapped (thread pools, scheduled executors). */
    public static final class WrapFirst {
        private WrapFirst() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object task) {
            task = Propagation.wrap(task);
        }
    }

    /** The task in the first parameter goes to a fork-join pool: wrapped, or kept beside a fork-join task. */
    public static final class ToPool {
        private ToPool() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object task) {
            task = Propagation.toPool(task);
        }
    }

    /** {@code ForkJoinTask.fork()}: the forked task may run on another worker. */
    public static final class Fork {
        private Fork() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object task) {
            Propagation.forked(task);
        }
    }

    /** {@code ForkJoinTask.doExec()}: every fork-join task's execution passes here. */
    public static final class TaskExec {
        private TaskExec() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object task) {
            return Propagation.taskRunning(task);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Propagation.end(token);
        }
    }

    /**
     * {@code CompletableFuture}'s private stage builders {@code xxxStage(Executor e, fn)}: the
     * function of an {@code *Async} stage ({@code e != null}) runs as a child of the execution
     * that built the stage, wherever and whenever it runs.
     */
    public static final class AsyncStageSecond {
        private AsyncStageSecond() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @Advice.Argument(0) Object executor,
                @Advice.Argument(value = 1, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object fn) {
            if (executor != null) {
                fn = Propagation.wrap(fn);
            }
        }
    }

    /** As {@link AsyncStageSecond} for {@code xxxStage(Executor e, CompletionStage other, fn)}. */
    public static final class AsyncStageThird {
        private AsyncStageThird() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @Advice.Argument(0) Object executor,
                @Advice.Argument(value = 2, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object fn) {
            if (executor != null) {
                fn = Propagation.wrap(fn);
            }
        }
    }

    /** As {@link AsyncStageSecond} where the function is a {@code BiFunction} ({@code uniHandleStage}). */
    public static final class AsyncBiFunctionSecond {
        private AsyncBiFunctionSecond() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @Advice.Argument(0) Object executor,
                @Advice.Argument(value = 1, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object fn) {
            if (executor != null) {
                fn = Propagation.wrapBiFunction(fn);
            }
        }
    }

    /** As {@link AsyncStageThird} where the function is a {@code BiFunction} ({@code biApplyStage}). */
    public static final class AsyncBiFunctionThird {
        private AsyncBiFunctionThird() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(
                @Advice.Argument(0) Object executor,
                @Advice.Argument(value = 2, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object fn) {
            if (executor != null) {
                fn = Propagation.wrapBiFunction(fn);
            }
        }
    }

    /** {@code Thread.start()} (and a virtual thread's {@code start(ThreadContainer)}). */
    public static final class ThreadStart {
        private ThreadStart() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Thread thread) {
            Propagation.threadStarting(thread);
        }
    }

    /** {@code Thread.run()}, the platform thread's entry called by the JVM. */
    public static final class ThreadRun {
        private ThreadRun() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Thread thread) {
            return Propagation.threadRunning(thread);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Propagation.end(token);
        }
    }

    /** {@code VirtualThread.run(Runnable)} (JDK 21+): the task is wrapped before the thread mounts. */
    public static final class VirtualThreadRun {
        private VirtualThreadRun() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Thread thread, @Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Propagation.virtualThreadTask(thread, task);
        }
    }

    /** Entry of a worker loop: see {@link Propagation#workerLoop()}. */
    public static final class WorkerLoop {
        private WorkerLoop() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter() {
            Propagation.workerLoop();
        }
    }
}
