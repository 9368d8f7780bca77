package io.sonde.analysis.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Keeps the first {@code limit} trace trees it is given (for display and export). */
public final class TreeCollector implements ExecutionListener {
    private final int limit;
    private final List<TraceTree> trees = new ArrayList<>();

    public TreeCollector(int limit) {
        this.limit = limit;
    }

    @Override
    public void onExecution(Execution execution) {}

    @Override
    public boolean wantsTree(ThreadInfo thread, long startWallNanos) {
        return trees.size() < limit;
    }

    @Override
    public void onTrace(TraceTree tree) {
        if (trees.size() < limit) trees.add(tree);
    }

    /** The kept trees in completion order. */
    public List<TraceTree> trees() {
        return Collections.unmodifiableList(trees);
    }
}
