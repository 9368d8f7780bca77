package io.sonde.agent.propagation;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.probe.Probes;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinTask;

/**
 * Wraps tasks handed to executors so that their execution continues the submitter's trace: each
 * trace the task starts on the worker thread is a child trace whose TRACE_START names the
 * submitter's trace id and the order index of the method execution that submitted the task.
 *
 * <p>Called from advice inlined into {@code java.util.concurrent} classes, so it lives on the
 * bootstrap class path and must never throw. A submitter outside any trace costs one
 * thread-local lookup and no allocation.
 */
public final class Propagation {

    private Propagation() {}

    /** The task itself when there is nothing to carry, else a wrapper carrying the trace position. */
    public static Runnable wrap(Runnable task) {
        if (task == null || task instanceof ContextRunnable || task instanceof ForkJoinTask) {
            return task; // ForkJoinTasks keep their identity: fork/join relies on it
        }
        ThreadBuffer b = Probes.active().currentBuffer();
        if (b == null || b.depth() == 0) {
            return task;
        }
        return new ContextRunnable(task, b.traceId(), b.orderIndex());
    }

    /** The task itself when there is nothing to carry, else a wrapper carrying the trace position. */
    public static <T> Callable<T> wrap(Callable<T> task) {
        if (task == null || task instanceof ContextCallable) {
            return task;
        }
        ThreadBuffer b = Probes.active().currentBuffer();
        if (b == null || b.depth() == 0) {
            return task;
        }
        return new ContextCallable<>(task, b.traceId(), b.orderIndex());
    }

    /**
     * Prepares the worker thread: its next trace becomes a child of the given position. Returns
     * the buffer to clean up after the task, or null when nothing was set (no monitor running, or
     * the task runs inside a trace already, e.g. a caller-runs policy: then it simply nests).
     */
    static ThreadBuffer begin(long parentTraceId, int parentOrderIndex) {
        ThreadBuffer b = Probes.active().buffer();
        if (b == null || b.depth() != 0) {
            return null;
        }
        b.setParent(parentTraceId, parentOrderIndex, true); // every trace the task starts
        return b;
    }

    /** Clears the task's parent, so it cannot leak into the thread's next task. */
    static void end(ThreadBuffer b) {
        if (b != null) {
            b.setParent(0L, -1);
        }
    }

    /** A runnable that runs its task as a child trace of the submitter's trace. */
    public static final class ContextRunnable implements Runnable {
        private final Runnable task;
        private final long parentTraceId;
        private final int parentOrderIndex;

        ContextRunnable(Runnable task, long parentTraceId, int parentOrderIndex) {
            this.task = task;
            this.parentTraceId = parentTraceId;
            this.parentOrderIndex = parentOrderIndex;
        }

        /** The wrapped task. */
        public Runnable task() {
            return task;
        }

        @Override
        public void run() {
            ThreadBuffer b = begin(parentTraceId, parentOrderIndex);
            try {
                task.run();
            } finally {
                end(b);
            }
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }

    /** A callable that runs its task as a child trace of the submitter's trace. */
    public static final class ContextCallable<T> implements Callable<T> {
        private final Callable<T> task;
        private final long parentTraceId;
        private final int parentOrderIndex;

        ContextCallable(Callable<T> task, long parentTraceId, int parentOrderIndex) {
            this.task = task;
            this.parentTraceId = parentTraceId;
            this.parentOrderIndex = parentOrderIndex;
        }

        /** The wrapped task. */
        public Callable<T> task() {
            return task;
        }

        @Override
        public T call() throws Exception {
            ThreadBuffer b = begin(parentTraceId, parentOrderIndex);
            try {
                return task.call();
            } finally {
                end(b);
            }
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }
}
