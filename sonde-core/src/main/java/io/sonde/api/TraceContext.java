package io.sonde.api;

/**
 * Where a thread is in its trace: trace id, execution order index of the innermost running
 * method execution, and call depth, plus the moment the context was captured. A small value
 * object for the slow path (e.g. capturing the context at an executor hand-off: {@link
 * Sonde#currentTrace()} when submitting, {@link Sonde#continueTrace(TraceContext)} in the task,
 * which records the wait between the two); {@link Sonde#currentTraceId()} and friends read the
 * same values without allocating.
 */
public final class TraceContext {
    /** {@link #handoffNanos()} of a context that carries no hand-off time. */
    public static final long NO_HANDOFF_TIME = Long.MIN_VALUE;

    private final long traceId;
    private final int orderIndex;
    private final int depth;
    private final long handoffNanos;

    /** A context with these values and no hand-off time (e.g. received from another process). */
    public TraceContext(long traceId, int orderIndex, int depth) {
        this(traceId, orderIndex, depth, NO_HANDOFF_TIME);
    }

    /**
     * A context with these values, captured at {@code handoffNanos} ({@code System.nanoTime()} of
     * this JVM, or {@link #NO_HANDOFF_TIME}).
     */
    public TraceContext(long traceId, int orderIndex, int depth, long handoffNanos) {
        this.traceId = traceId;
        this.orderIndex = orderIndex;
        this.depth = depth;
        this.handoffNanos = handoffNanos;
    }

    /**
     * {@code System.nanoTime()} when the context was captured for a hand-off (by {@link
     * Sonde#currentTrace()}), or {@link #NO_HANDOFF_TIME}; the child trace records it, so the wait
     * between hand-off and start is known.
     */
    public long handoffNanos() {
        return handoffNanos;
    }

    /** The trace id (0: none). */
    public long traceId() {
        return traceId;
    }

    /** Execution order index of the innermost running method execution (-1: none). */
    public int orderIndex() {
        return orderIndex;
    }

    /** Number of running probed method executions. */
    public int depth() {
        return depth;
    }

    /** For example {@code trace 4294967297 order 3 depth 2}. */
    @Override
    public String toString() {
        return "trace " + traceId + " order " + orderIndex + " depth " + depth;
    }
}
