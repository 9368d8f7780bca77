package io.sonde.analysis;

import io.sonde.analysis.input.EventFields;
import io.sonde.analysis.stats.TimeWindow;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.Operation;
import io.sonde.analysis.tree.ThreadInfo;
import io.sonde.analysis.tree.TraceTree;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Passes on the executions whose operation matches the operation pattern and whose start lies in
 * the time window, and the trees of requests whose root piece starts in the window (their pieces
 * on other threads follow their root wherever they lie; whether a joined tree contains a matching
 * operation is decided by the {@link io.sonde.analysis.tree.TreeCollector} with {@link
 * #matches(Operation)}, over all its pieces). (Thread filtering happens earlier, in the tree
 * builder, so excluded threads cost nothing.)
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
    public boolean wantsTree(ThreadInfo thread, long startWallNanos, long traceId, long parentTraceId) {
        // A request whose root starts outside the window is not shown: do not keep its nodes at all.
        if (parentTraceId == 0 && !window.contains(startWallNanos)) return false;
        // every listener is asked (no short cut): some follow pieces through this call (the OTLP export)
        boolean any = false;
        for (int i = 0; i < downstream.size(); i++) any |= downstream.get(i).wantsTree(thread, startWallNanos, traceId, parentTraceId);
        return any;
    }

    @Override
    public void onPieceStart(ThreadInfo thread, long traceId, long startWallNanos) {
        for (int i = 0; i < downstream.size(); i++) downstream.get(i).onPieceStart(thread, traceId, startWallNanos);
    }

    @Override
    public void onTreeEvent(ThreadInfo thread, long traceId, String type, long wallNanos, EventFields fields) {
        if (!window.contains(wallNanos)) return;
        for (int i = 0; i < downstream.size(); i++) downstream.get(i).onTreeEvent(thread, traceId, type, wallNanos, fields);
    }

    @Override
    public void onTrace(TraceTree tree) {
        for (ExecutionListener l : downstream) l.onTrace(tree);
    }

    /** Whether an operation matches the operation pattern (always, without one). */
    public boolean matches(Operation op) {
        return matches(op.index(), op.name());
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
