package io.sonde.api;

/**
 * Where a thread is in its trace: trace id, execution order index of the innermost running
 * method execution, and call depth. A small value object for the slow path (e.g. capturing the
 * context at an executor hand-off); {@link Sonde#currentTraceId()} and friends read the same
 * values without allocating.
 */
public final class TraceContext {
    private final long traceId;
    private final int orderIndex;
    private final int depth;

    /** A context with these values (e.g. received from another process). */
    public TraceContext(long traceId, int orderIndex, int depth) {
        this.traceId = traceId;
        this.orderIndex = orderIndex;
        this.depth = depth;
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
