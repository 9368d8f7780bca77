package io.sonde.analysis;

import io.sonde.analysis.budget.BudgetSwitchCollector;
import io.sonde.analysis.input.RecordHandler;
import io.sonde.analysis.demand.DemandCollector;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.input.RecordSource;
import io.sonde.analysis.input.TimeRange;
import io.sonde.analysis.stats.StatisticsCollector;
import io.sonde.analysis.stats.TimeWindow;
import io.sonde.analysis.tree.CallTreeBuilder;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.OperationTable;
import io.sonde.analysis.tree.TreeCollector;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One analysis pass: reads a {@link RecordSource} once, rebuilds call trees, and feeds the
 * statistics, the kept trees, the service demands and any extra listeners. Memory stays bounded:
 * open stacks, per-operation aggregates, and at most {@link AnalysisOptions#keepTrees} trees.
 */
public final class Analyzer {
    /** Most timeline buckets chosen automatically (each costs 12 bytes per operation). */
    static final long AUTO_MAX_BUCKETS = 1000;

    private Analyzer() {}

    public static AnalysisResult run(RecordSource source, AnalysisOptions options) {
        long t0 = System.nanoTime();
        TimeRange range = source.timeRange();
        TimeWindow window = window(range, options);
        long origin = window.isAll() || window.fromNanos() == Long.MIN_VALUE
                ? (range != null ? range.startNanos() : 0)
                : window.fromNanos();
        long bucket = options.bucketNanos > 0 ? options.bucketNanos : autoBucket(range, window);

        StatisticsCollector stats = new StatisticsCollector(origin, bucket);
        DemandCollector demands = new DemandCollector(options.groups);
        List<ExecutionListener> downstream = new ArrayList<>();
        downstream.add(stats);
        downstream.add(demands);
        downstream.addAll(options.extraListeners);
        // the tree collector decides matches over a request's pieces, with the filter's verdicts
        AnalysisFilter[] filterRef = new AnalysisFilter[1];
        TreeCollector trees = new TreeCollector(options.keepTrees,
                options.operationPattern == null ? null : op -> filterRef[0].matches(op));
        downstream.add(1, trees);
        AnalysisFilter filter = new AnalysisFilter(options.operationPattern, window, downstream);
        filterRef[0] = filter;
        Pattern threads = options.threadPattern;
        CallTreeBuilder builder = new CallTreeBuilder(new OperationTable(), filter,
                threads == null ? name -> true : name -> threads.matcher(name).find(), options.probeCost);
        trees.seenTraces(builder::traceSeen);

        BudgetSwitchCollector switches = new BudgetSwitchCollector();
        List<InputProblem> problems;
        try {
            problems = source.read(RecordHandler.both(builder, switches), options.progress);
        } finally {
            options.progress.done();
        }
        builder.finish();
        trees.finish(builder::traceSeen);
        return new AnalysisResult(source.names(), builder.agents(), range, window, options, builder.counters(), stats,
                trees.trees(), trees.joinedTrees(), demands, problems, switches.switches(), System.nanoTime() - t0);
    }

    /** The window of execution starts selected by the options, in wall-clock ns. */
    static TimeWindow window(TimeRange range, AnalysisOptions o) {
        boolean any = o.fromSeconds != null || o.toSeconds != null || o.skipWarmupSeconds > 0 || o.skipCooldownSeconds > 0;
        if (!any) return TimeWindow.ALL;
        if (range == null) throw new IllegalArgumentException("a time window needs the log's time range, which this input cannot give");
        long from = range.startNanos() + seconds(o.skipWarmupSeconds);
        long to = range.endNanos() - seconds(o.skipCooldownSeconds);
        if (o.fromSeconds != null) from = Math.max(from, range.startNanos() + seconds(o.fromSeconds));
        if (o.toSeconds != null) to = Math.min(to, range.startNanos() + seconds(o.toSeconds));
        // The last instant of the log belongs to it: make the end inclusive unless cut.
        if (o.toSeconds == null && o.skipCooldownSeconds <= 0) to = Long.MAX_VALUE;
        if (o.fromSeconds == null && o.skipWarmupSeconds <= 0) from = Long.MIN_VALUE;
        return new TimeWindow(from, to);
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    private static long autoBucket(TimeRange range, TimeWindow w) {
        long second = 1_000_000_000L;
        if (range == null) return second;
        long from = Math.max(range.startNanos(), w.fromNanos());
        long to = Math.min(range.endNanos(), w.toNanos());
        long span = Math.max(0, to - from);
        long perBucket = (span + AUTO_MAX_BUCKETS - 1) / AUTO_MAX_BUCKETS;
        return Math.max(second, (perBucket + second - 1) / second * second);
    }
}
