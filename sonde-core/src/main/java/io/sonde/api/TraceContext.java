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

    public TraceContext(long traceId, int orderIndex, int depth) {
        this.traceId = traceId;
        this.orderIndex = orderIndex;
        this.depth = depth;
    }

    public long traceId() {
        return traceId;
    }

    public int orderIndex() {
        return orderIndex;
    }

    public int depth() {
        return depth;
    }

    @Override
    public String toString() {
        return "trace " + traceId + " order " + orderIndex + " depth " + depth;
    }
}
