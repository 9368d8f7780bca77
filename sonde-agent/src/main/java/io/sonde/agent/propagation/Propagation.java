package io.sonde.agent.propagation;

import io.sonde.agent.instrument.Hooks;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinTask;

/**
 * Wraps tasks handed to executors so their execution continues the submitter's trace as a child
 * trace (parent trace id + the order index of the execution that submitted the task).
 *
 * <p>Called from advice inlined into {@code java.util.concurrent} classes, so it lives on the
 * bootstrap class path and must never throw.
 */
public final class Propagation {

    private Propagation() {}

    /** The task itself when there is nothing to carry, else a wrapper carrying the trace position. */
    public static Runnable wrap(Runnable task) {
        if (task == null || task instanceof ContextRunnable || task instanceof ForkJoinTask) {
            return task; // ForkJoinTasks keep their identity: fork/join relies on it
        }
        Object parent = Hooks.captureParent();
        return parent == null ? task : new ContextRunnable(task, parent);
    }

    /** The task itself when there is nothing to carry, else a wrapper carrying the trace position. */
    public static <T> Callable<T> wrap(Callable<T> task) {
        if (task == null || task instanceof ContextCallable) {
            return task;
        }
        Object parent = Hooks.captureParent();
        return parent == null ? task : new ContextCallable<>(task, parent);
    }

    /** A runnable that runs its task as a child trace of the submitter's trace. */
    public static final class ContextRunnable implements Runnable {
        private final Runnable task;
        private final Object parent;

        ContextRunnable(Runnable task, Object parent) {
            this.task = task;
            this.parent = parent;
        }

        /** The wrapped task. */
        public Runnable task() {
            return task;
        }

        @Override
        public void run() {
            Object previous = Hooks.beginChild(parent);
            try {
                task.run();
            } finally {
                Hooks.endChild(previous);
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
        private final Object parent;

        ContextCallable(Callable<T> task, Object parent) {
            this.task = task;
            this.parent = parent;
        }

        /** The wrapped task. */
        public Callable<T> task() {
            return task;
        }

        @Override
        public T call() throws Exception {
            Object previous = Hooks.beginChild(parent);
            try {
                return task.call();
            } finally {
                Hooks.endChild(previous);
            }
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }
}
