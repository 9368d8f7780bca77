package io.sonde.analysis;

import io.sonde.analysis.budget.BudgetSwitch;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.demand.DemandCollector;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.input.TimeRange;
import io.sonde.analysis.stats.StatisticsCollector;
import io.sonde.analysis.stats.TimeWindow;
import io.sonde.analysis.tree.JoinedTree;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeCounters;
import java.util.List;

/**
 * Everything one analysis pass produced.
 *
 * @param inputs names of the inputs read
 * @param agents the processes found
 * @param logRange wall-clock span of the input (null if unknown)
 * @param window the time window executions were taken from
 * @param options the options used
 * @param counters what the tree builder saw and discarded
 * @param statistics per-operation statistics
 * @param trees the pieces of the kept joined trees, in tree order (each a trace on one thread)
 * @param joinedTrees the kept requests' trees across threads, then unlinked fragments
 * @param demands service demands per thread group
 * @param problems input that could not be read (errors: the results are partial) and notices
 * @param budgetSwitches probes the java agent's overhead budget switched off during the run
 * @param elapsedNanos duration of the pass
 */
public record AnalysisResult(
        List<String> inputs,
        List<AgentInfo> agents,
        TimeRange logRange,
        TimeWindow window,
        AnalysisOptions options,
        TreeCounters counters,
        StatisticsCollector statistics,
        List<TraceTree> trees,
        List<JoinedTree> joinedTrees,
        DemandCollector demands,
        List<InputProblem> problems,
        List<BudgetSwitch> budgetSwitches,
        long elapsedNanos) {

    /** True when part of the input could not be read (an error): results cover the readable part. */
    public boolean partial() {
        for (InputProblem p : problems) if (p.error()) return true;
        return false;
    }

    /** Seconds the analysis covers: the time window cut to the log's span (0 if the span is unknown). */
    public double observedSeconds() {
        if (logRange == null) return 0;
        long from = Math.max(logRange.startNanos(), window.fromNanos());
        long to = Math.min(logRange.endNanos(), window.toNanos());
        return Math.max(0, to - from) / 1e9;
    }

    public ProbeCost probeCost() {
        return options.probeCost;
    }
}
