package io.sonde.agent.propagation;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.probe.Probes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.BiFunction;

/**
 * What the advice woven into the JDK's hand-off points calls: carries the trace position of the
 * thread that hands work over to the thread that runs it, so each trace the work starts there is
 * a child trace whose TRACE_START names the hander's trace id and the order index of the method
 * execution that handed it over.
 *
 * <p>Three ways to carry it, by what the hand-off allows:
 * <ul>
 *   <li>a wrapper ({@link ContextTask}) replacing the task or function, where the receiver does
 *       not care about its identity (thread pools, scheduled tasks, {@code CompletableFuture}
 *       stage functions);</li>
 *   <li>a weak identity table beside the object, where identity matters: fork-join tasks (fork,
 *       join, {@code getPool} work on the task itself) and started threads;</li>
 *   <li>clearing, at the entry of a worker loop, whatever the thread inherited when it was
 *       started, so a pool's thread never links its tasks to whoever happened to start it.</li>
 * </ul>
 *
 * <p>Called from advice inlined into {@code java.*} classes, so it lives on the bootstrap class
 * path and never throws (the advice suppresses anything). Outside any trace a hand-off costs one
 * volatile read and one thread-local lookup, and allocates nothing; inside one it also reads the
 * clock ({@code System.nanoTime()}, the hand-off time the child's HANDOFF_START records).
 */
public final class Propagation {

    /** Threads started inside a trace, until they run. */
    private static final WeakIdentityTable THREADS = new WeakIdentityTable();
    /** Fork-join tasks handed over inside a trace, until they run. */
    private static final WeakIdentityTable TASKS = new WeakIdentityTable();

    private Propagation() {}

    /**
     * The task or function itself when there is nothing to carry or it carries its context
     * already, else a {@link ContextTask} around it. For receivers that do not rely on the
     * object's identity.
     */
    public static Object wrap(Object task) {
        if (task == null || task instanceof ContextTask || task instanceof CompletableFuture.AsynchronousCompletionTask) {
            return task; // a CompletableFuture's task carries its context in its function
        }
        ThreadBuffer b = Handoff.inTrace();
        return b == null ? task : new ContextTask(task, b.traceId(), b.orderIndex(), System.nanoTime());
    }

    /** As {@link #wrap} for a {@code BiFunction} (a stage's {@code handleAsync}, {@code thenCombineAsync}). */
    @SuppressWarnings("unchecked")
    public static Object wrapBiFunction(Object fn) {
        if (fn == null || fn instanceof ContextBiFunction) {
            return fn;
        }
        ThreadBuffer b = Handoff.inTrace();
        return b == null ? fn : new ContextBiFunction((BiFunction<Object, Object, ?>) fn, b.traceId(), b.orderIndex(), System.nanoTime());
    }

    /**
     * A {@code CompletableFuture} stage's function: wrapped as by {@link #wrap} when the stage is
     * {@code *Async} (it runs on {@code executor}), itself when the executor is null.
     */
    public static Object wrapOnExecutor(Object executor, Object fn) {
        return executor == null ? fn : wrap(fn);
    }

    /** As {@link #wrapOnExecutor} for a {@code BiFunction}. */
    public static Object wrapBiFunctionOnExecutor(Object executor, Object fn) {
        return executor == null ? fn : wrapBiFunction(fn);
    }

    /**
     * A task handed to a {@code ForkJoinPool}: fork-join tasks keep their identity (the hand-off
     * is kept beside them until they run); anything else is wrapped as by {@link #wrap}.
     */
    public static Object toPool(Object task) {
        if (task instanceof ForkJoinTask) {
            forked(task);
            return task;
        }
        return wrap(task);
    }

    /** A fork-join task forked or submitted: its execution elsewhere continues this trace. */
    public static void forked(Object task) {
        if (task instanceof CompletableFuture.AsynchronousCompletionTask) {
            return;
        }
        Handoff h = Handoff.here();
        if (h != null) {
            TASKS.put(task, h);
        }
    }

    /** Entry of a fork-join task's execution: begins its hand-off if it has one (token for {@link #end}). */
    public static Object taskRunning(Object task) {
        Handoff h = TASKS.remove(task);
        return h == null ? null : h.begin();
    }

    /** A thread started: when the starter is inside a trace, the thread's run is its child. */
    public static void threadStarting(Thread thread) {
        if (thread instanceof ForkJoinWorkerThread) {
            return; // a pool's worker: its tasks carry their own hand-offs
        }
        Handoff h = Handoff.here();
        if (h != null) {
            THREADS.put(thread, h);
        }
    }

    /** Entry of a platform thread's {@code run()}: begins its start's hand-off (token for {@link #end}). */
    public static Object threadRunning(Thread self) {
        if (self != Thread.currentThread()) {
            return null; // run() called as a plain method, not the thread's own start
        }
        Handoff h = THREADS.remove(self);
        return h == null ? null : h.begin();
    }

    /**
     * The task of a virtual thread (JDK 21+), about to run on it: wrapped with the start's hand-off,
     * so the hand-off begins once the virtual thread is mounted.
     */
    public static Runnable virtualThreadTask(Thread self, Runnable task) {
        Handoff h = THREADS.remove(self);
        return h == null || task == null ? task : new ContextTask(task, h.parentTraceId, h.parentOrderIndex, h.handoffNanos());
    }

    /** Undoes a {@code *Running} call (null: nothing to undo). */
    public static void end(Object token) {
        Handoff.end(token);
    }

    /**
     * Entry of a worker loop (a pool thread's run loop): whatever the thread inherited from the
     * execution that started it does not apply to the tasks it runs; they carry their own.
     */
    public static void workerLoop() {
        ThreadBuffer b = Probes.active().currentBuffer();
        if (b != null && b.depth() == 0) {
            b.setParent(0L, -1);
        }
    }
}
