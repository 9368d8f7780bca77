package io.sonde.analysis;

import io.sonde.analysis.stats.TimeWindow;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.ThreadInfo;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Passes on the executions whose operation matches the operation pattern and whose start lies in
 * the time window, and the trees whose root starts in the window and that contain a matching
 * operation. (Thread filtering happens earlier, in the tree builder, so excluded threads cost
 * nothing.)
 */
public final class AnalysisFilter implements ExecutionListener {
    private final Pattern operationPattern;
    private final TimeWindow window;
    private final List<ExecutionListener> downstream;
    // Cache of the pattern's verdict per operation index (the regex runs once per operation).
    private byte[] verdict = new byte[64];

    /**
     * @param operationPattern regular expression searched in operation names (null: all)
     * @param window time window of execution starts
     */
    public AnalysisFilter(Pattern operationPattern, TimeWindow window, List<ExecutionListener> downstream) {
        this.operationPattern = operationPattern;
        this.window = window;
        this.downstream = List.copyOf(downstream);
    }

    @Override
    public void onExecution(Execution e) {
        if (!window.contains(e.startWallNanos())) return;
        if (!matches(e.operation().index(), e.operation().name())) return;
        for (int i = 0; i < downstream.size(); i++) downstream.get(i).onExecution(e);
    }

    @Override
    public boolean wantsTree(ThreadInfo thread, long startWallNanos) {
        // A root outside the window would be dropped in onTrace: do not keep its nodes at all.
        if (!window.contains(startWallNanos)) return false;
        for (int i = 0; i < downstream.size(); i++) if (downstream.get(i).wantsTree(thread, startWallNanos)) return true;
        return false;
    }

    @Override
    public void onTrace(TraceTree tree) {
        if (!window.contains(tree.root().startWallNanos())) return;
        if (!containsMatch(tree)) return;
        for (ExecutionListener l : downstream) l.onTrace(tree);
    }

    private boolean containsMatch(TraceTree tree) {
        if (operationPattern == null) return true;
        for (TreeNode n : tree.nodes()) if (matches(n.operation().index(), n.operation().name())) return true;
        return false;
    }

    private boolean matches(int index, String name) {
        if (operationPattern == null) return true;
        if (index >= verdict.length) verdict = java.util.Arrays.copyOf(verdict, Math.max(index + 1, verdict.length * 2));
        byte v = verdict[index];
        if (v == 0) {
            v = operationPattern.matcher(name).find() ? (byte) 1 : (byte) 2;
            verdict[index] = v;
        }
        return v == 1;
    }
}
