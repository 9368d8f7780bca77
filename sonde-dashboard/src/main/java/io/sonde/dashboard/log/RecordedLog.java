package io.sonde.dashboard.log;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.input.TimeRange;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.tree.JoinedTree;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A recorded log as the dashboard shows it. Opening runs one analysis pass of sonde-analysis (the
 * same as {@code sonde analyze} with the same probe cost) and lists the requests on the way; the
 * views that need more than that pass keeps (one request's call tree, one operation's percentiles
 * over time) run a further, narrower pass of the same analysis on demand and keep the last few
 * answers. Every number therefore comes from sonde-analysis, never from a second computation.
 */
public final class RecordedLog {
    /** On-demand answers kept (trees and time series each). */
    private static final int CACHED = 32;
    /**
     * Margins of the time windows that find one request by its start, ns, tried in turn, with the
     * requests kept in each. An execution's start as listed and its tree node's start can differ
     * by a little: the wall clock is derived from the clock pair of the frame holding the ENTER for
     * the tree, of the frame holding the EXIT for the completed execution, and the pairs of two
     * frames may disagree by microseconds (more when the system clock was adjusted in between).
     */
    private static final long[][] FIND_WINDOWS = {{1_000, 64}, {1_000_000, 1_024}, {100_000_000, 8_192}};
    /** About this many timeline buckets over the log's span (a chart's worth). */
    static final long TARGET_BUCKETS = 120;

    private final LogSource source;
    private final ProbeCost probeCost;
    private final AnalysisResult result;
    private final TraceIndex index;
    private final Map<String, TreeView> trees = lru();
    private final Map<String, List<Bucket>> series = lru();

    private RecordedLog(LogSource source, ProbeCost probeCost, AnalysisResult result, TraceIndex index) {
        this.source = source;
        this.probeCost = probeCost;
        this.result = result;
        this.index = index;
    }

    /**
     * Reads the logs under {@code paths} (files, an agent's folder, or a folder of agents) once.
     *
     * @param probeCost perturbation correction to apply ({@link ProbeCost#NONE}: none)
     * @throws IOException if a path does not exist or holds no log (the message names it)
     */
    public static RecordedLog open(List<Path> paths, ProbeCost probeCost) throws IOException {
        LogSource source = new LogSource(paths);
        TraceIndex index = new TraceIndex(TraceIndex.DEFAULT_LIMIT);
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 0; // trees are fetched one at a time, on demand
        o.bucketNanos = bucketFor(source.timeRange());
        o.probeCost = probeCost;
        o.extraListeners.add(index);
        return new RecordedLog(source, probeCost, Analyzer.run(source, o), index);
    }

    /**
     * The timeline bucket width for a log span: about {@link #TARGET_BUCKETS} buckets, a width of
     * 1, 2 or 5 times a power of ten, at least 1 ms (0, the analysis' own choice, when the span is
     * unknown). {@code sonde analyze --bucket} with the same width gives the same timeline.
     */
    static long bucketFor(TimeRange span) {
        if (span == null) return 0;
        long wanted = Math.max(1_000_000L, span.durationNanos() / TARGET_BUCKETS);
        for (long power = 1_000_000L; ; power *= 10) {
            for (long m : new long[] {1, 2, 5}) if (power * m >= wanted) return power * m;
        }
    }

    /** The full analysis pass: statistics, counters, demands, problems. */
    public AnalysisResult result() {
        return result;
    }

    public ProbeCost probeCost() {
        return probeCost;
    }

    public TraceIndex index() {
        return index;
    }

    /** Log start, wall-clock ns (0 when the log holds no readable frame). */
    public long startNanos() {
        TimeRange r = result.logRange();
        return r == null ? 0 : r.startNanos();
    }

    /** Statistics of the operation named {@code name}, or null if it had no execution. */
    public OperationStats operation(String name) {
        for (OperationStats s : result.statistics().all()) if (s.operation().name().equals(name)) return s;
        return null;
    }

    /**
     * A trace search over the listed requests, by start time.
     *
     * @param operation root operation's exact name, or null for any
     * @param minDurationNanos shortest inclusive wall time of the root
     * @param fromNanos earliest start, ns after the log start (null: any)
     * @param toNanos latest start, ns after the log start (null: any)
     * @param limit most results returned
     */
    public Search search(String operation, long minDurationNanos, Long fromNanos, Long toNanos, int limit) {
        List<TraceSummary> out = new ArrayList<>();
        long matches = 0;
        long start = startNanos();
        for (TraceSummary t : index.traces()) {
            if (operation != null && !t.operation().name().equals(operation)) continue;
            if (t.wallNanos() < minDurationNanos) continue;
            long offset = t.startWallNanos() - start;
            if (fromNanos != null && offset < fromNanos) continue;
            if (toNanos != null && offset > toNanos) continue;
            matches++;
            if (out.size() < limit) out.add(t);
        }
        return new Search(matches, out);
    }

    /**
     * What a search found.
     *
     * @param matches requests matching, of which {@code traces} lists the first ones
     * @param traces the first matches by start time
     */
    public record Search(long matches, List<TraceSummary> traces) {}

    /** The listed request of that agent and root trace id, or null. */
    public TraceSummary find(int agent, long traceId) {
        for (TraceSummary t : index.traces()) if (t.agent() == agent && t.traceId() == traceId) return t;
        return null;
    }

    /**
     * One request's joined call tree, by a pass over the request's start instant; with a probe
     * cost also the tree as measured (a pass without correction), so both can be shown.
     *
     * @return the tree, or null when the request is not in the log
     */
    public synchronized TreeView tree(int agent, long traceId) {
        String key = TraceKey.of(agent, traceId);
        TreeView cached = trees.get(key);
        if (cached != null) return cached;
        TraceSummary t = find(agent, traceId);
        if (t == null) return null;
        JoinedTree tree = findTree(t, probeCost);
        if (tree == null) return null;
        JoinedTree measured = probeCost.isNone() ? null : findTree(t, ProbeCost.NONE);
        TreeView view = new TreeView(t, tree, measured);
        trees.put(key, view);
        return view;
    }

    /**
     * A request's tree and, when a probe cost corrects the times, the same tree as measured.
     *
     * @param summary the request
     * @param tree its joined tree (times corrected when a probe cost is set)
     * @param measured the tree without correction, or null when no correction applies
     */
    public record TreeView(TraceSummary summary, JoinedTree tree, JoinedTree measured) {}

    private JoinedTree findTree(TraceSummary t, ProbeCost cost) {
        long offset = t.startWallNanos() - startNanos();
        for (long[] w : FIND_WINDOWS) {
            long margin = w[0];
            AnalysisOptions o = new AnalysisOptions();
            // seconds after the log start, as the analysis takes them; a start before the log start
            // (records of the first frame may predate it) is reached with an open lower bound
            o.fromSeconds = offset > margin ? (offset - margin) / 1e9 : null;
            o.toSeconds = (offset + margin) / 1e9;
            o.keepTrees = (int) w[1];
            o.probeCost = cost;
            AnalysisResult r = Analyzer.run(source, o);
            for (JoinedTree j : r.joinedTrees()) {
                if (!j.unlinked() && j.root().traceId() == t.traceId() && j.root().thread().agent().index() == t.agent()) return j;
            }
        }
        return null;
    }

    /**
     * Calls, mean and percentiles of inclusive wall time per timeline bucket of one operation: the
     * calls and mean are the main pass' timeline (as in {@code sonde analyze --json}), the
     * percentiles come from a pass restricted to the operation with the same buckets.
     *
     * @return the buckets up to the operation's last, or null when the operation had no execution
     */
    public synchronized List<Bucket> timeseries(String operation) {
        List<Bucket> cached = series.get(operation);
        if (cached != null) return cached;
        OperationStats s = operation(operation);
        if (s == null) return null;
        long origin = result.statistics().originNanos();
        long width = result.statistics().bucketNanos();
        AnalysisOptions o = new AnalysisOptions();
        o.operationPattern = Pattern.compile("^" + Pattern.quote(operation) + "$");
        o.keepTrees = 0;
        o.bucketNanos = width;
        o.probeCost = probeCost;
        BucketPercentiles percentiles = new BucketPercentiles(operation, origin, width);
        o.extraListeners.add(percentiles);
        Analyzer.run(source, o);
        List<Bucket> out = new ArrayList<>();
        for (int b = 0; b < s.buckets(); b++) {
            LatencyDistribution d = percentiles.bucket(b);
            long calls = s.callsInBucket(b);
            double mean = s.meanWallInBucket(b);
            out.add(d == null
                    ? new Bucket(b, calls, calls / (width / 1e9), mean, -1, -1, -1, -1)
                    : new Bucket(b, calls, calls / (width / 1e9), mean, d.percentile(50), d.percentile(90), d.percentile(99), d.max()));
        }
        out = List.copyOf(out);
        series.put(operation, out);
        return out;
    }

    /**
     * One timeline bucket of an operation; times in ns, -1 where the bucket had no call.
     *
     * @param index bucket number from the timeline origin
     * @param calls executions that started in the bucket
     * @param callsPerSecond calls / bucket width
     * @param meanNanos mean inclusive wall time (-1: no call)
     */
    public record Bucket(int index, long calls, double callsPerSecond, double meanNanos, long p50, long p90, long p99, long max) {}

    private static <V> Map<String, V> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > CACHED;
            }
        };
    }
}
