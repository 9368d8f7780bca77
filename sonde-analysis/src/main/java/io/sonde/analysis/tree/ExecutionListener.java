package io.sonde.analysis.tree;

/** Receives what {@link CallTreeBuilder} rebuilds, as it completes. */
public interface ExecutionListener {
    /** An execution completed (post-order: callees before their caller). */
    void onExecution(Execution execution);

    /**
     * Asked when a trace's root execution starts on a thread (at wall-clock time {@code
     * startWallNanos}): should its whole tree (this piece) be kept and handed to {@link #onTrace}?
     * Keeping trees costs memory, so listeners answer true only while they need more. {@code
     * parentTraceId} (0: none) tells a piece of somebody else's request from a root.
     */
    default boolean wantsTree(ThreadInfo thread, long startWallNanos, long traceId, long parentTraceId) {
        return false;
    }

    /**
     * A trace's root execution starts on a thread (every piece, kept or not): for listeners that
     * follow pieces across threads (the Chrome trace's hand-off arrows).
     */
    default void onPieceStart(ThreadInfo thread, long traceId, long startWallNanos) {}

    /**
     * A custom event was recorded during an execution of trace {@code traceId} (inside an
     * execution, outside its callees); {@code fields} renders its values on demand.
     */
    default void onTreeEvent(ThreadInfo thread, long traceId, String type, long wallNanos, io.sonde.analysis.input.EventFields fields) {}

    /** A trace whose tree was requested completed. */
    default void onTrace(TraceTree tree) {}
}
