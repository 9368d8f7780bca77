package io.sonde.analysis.tree;

/** Receives what {@link CallTreeBuilder} rebuilds, as it completes. */
public interface ExecutionListener {
    /** An execution completed (post-order: callees before their caller). */
    void onExecution(Execution execution);

    /**
     * Asked when a trace's root execution starts on a thread (at wall-clock time {@code
     * startWallNanos}): should its whole tree be kept and handed to {@link #onTrace}? Keeping
     * trees costs memory, so listeners answer true only while they need more.
     */
    default boolean wantsTree(ThreadInfo thread, long startWallNanos) {
        return false;
    }

    /** A trace whose tree was requested completed. */
    default void onTrace(TraceTree tree) {}
}
