package io.sonde.dashboard.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.demand.DemandCollector;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.JoinedTree;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import io.sonde.dashboard.log.RecordedLog;
import io.sonde.dashboard.log.TraceKey;
import io.sonde.dashboard.log.TraceSummary;
import io.sonde.dashboard.whatif.WhatIf;
import io.sonde.sim.model.Strategy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON API over a recorded log ({@code sonde dashboard LOGDIR}). All times are integer
 * nanoseconds; offsets ({@code …OffsetNanos}) count from the log start, which keeps them exact in
 * a browser (epoch nanoseconds are beyond a JavaScript number's integer range). Unknown values
 * (a CPU time not recorded, a bucket without calls) are {@code null}.
 */
public final class LogApi implements Api {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Most traces one search returns. */
    static final int MAX_LIMIT = 1000;

    private final RecordedLog log;

    public LogApi(RecordedLog log) {
        this.log = log;
    }

    @Override
    public JsonNode get(String path, Query q) {
        switch (path) {
            case "/api/log":
                return summary();
            case "/api/operations":
                return operations();
            case "/api/traces":
                return traces(q);
            case "/api/timeseries":
                return timeseries(q);
            case "/api/demands":
                return demands();
            case "/api/whatif":
                return whatIf(q);
            default:
                if (path.startsWith("/api/traces/")) return trace(path.substring("/api/traces/".length()));
                throw ApiError.notFound("no such API: " + path);
        }
    }

    /** What was read: inputs, agents, span, counters, problems. */
    private JsonNode summary() {
        AnalysisResult r = log.result();
        ObjectNode o = JSON.objectNode();
        o.put("source", "log");
        o.put("partial", r.partial());
        ArrayNode inputs = o.putArray("inputs");
        r.inputs().forEach(inputs::add);
        ArrayNode agents = o.putArray("agents");
        for (AgentInfo a : r.agents()) {
            agents.addObject().put("index", a.index()).put("id", String.valueOf(a.id())).put("host", a.host()).put("pid", a.pid());
        }
        if (r.logRange() != null) {
            o.put("startEpochMillis", r.logRange().startNanos() / 1_000_000L);
            o.put("durationNanos", r.logRange().durationNanos());
        } else {
            o.putNull("startEpochMillis");
            o.putNull("durationNanos");
        }
        o.put("probeCostWallNanos", log.probeCost().wallNanos());
        o.put("probeCostCpuNanos", log.probeCost().cpuNanos());
        o.put("operations", r.statistics().all().size());
        o.put("executions", r.counters().executions);
        o.put("requests", log.index().seen());
        o.put("requestsListed", log.index().traces().size());
        o.put("bucketNanos", r.statistics().bucketNanos());
        o.put("timelineOriginOffsetNanos", r.statistics().originNanos() - log.startNanos());
        ArrayNode problems = o.putArray("problems");
        for (InputProblem p : r.problems()) {
            problems.addObject().put("source", p.source()).put("offset", p.offset()).put("message", p.message()).put("error", p.error());
        }
        return o;
    }

    /** One object per operation, by descending total exclusive time (the order of {@code sonde analyze}). */
    private JsonNode operations() {
        ArrayNode out = JSON.arrayNode();
        for (OperationStats s : log.result().statistics().all()) {
            LatencyDistribution d = s.inclusive();
            ObjectNode o = out.addObject();
            o.put("operation", s.operation().name());
            o.put("count", s.count());
            o.put("errors", s.exceptions());
            o.put("mean", d.mean());
            o.put("p50", d.percentile(50));
            o.put("p90", d.percentile(90));
            o.put("p99", d.percentile(99));
            o.put("max", d.max());
            o.put("total", d.sum());
            o.put("exclusiveTotal", s.exclusive().sum());
            unknownIfNegative(o, "cpuMean", s.cpuInclusiveMean());
            o.put("exact", d.isExact());
        }
        return out;
    }

    private JsonNode traces(Query q) {
        String operation = q.text("operation");
        long minDuration = q.whole("minDurationNs", 0, 0, Long.MAX_VALUE);
        Long from = seconds(q, "from");
        Long to = seconds(q, "to");
        int limit = (int) q.whole("limit", 100, 1, MAX_LIMIT);
        RecordedLog.Search s = log.search(operation, minDuration, from, to, limit);
        ObjectNode o = JSON.objectNode();
        o.put("matches", s.matches());
        o.put("listed", log.index().traces().size());
        o.put("truncatedIndex", log.index().truncated());
        ArrayNode traces = o.putArray("traces");
        for (TraceSummary t : s.traces()) traces.add(summary(t));
        return o;
    }

    /** A time bound given in seconds after the log start (as {@code sonde analyze --from}), in ns. */
    private static Long seconds(Query q, String name) {
        Double s = q.decimal(name);
        if (s == null) return null;
        if (s < 0) throw ApiError.badRequest(name + ": seconds after the log start must not be negative, got " + s);
        return Math.round(s * 1e9);
    }

    private ObjectNode summary(TraceSummary t) {
        ObjectNode o = JSON.objectNode();
        o.put("id", t.id());
        o.put("operation", t.operation().name());
        o.put("thread", t.thread().name());
        o.put("startOffsetNanos", t.startWallNanos() - log.startNanos());
        o.put("durationNanos", t.wallNanos());
        unknownIfNegative(o, "cpuNanos", t.cpuNanos());
        o.put("exception", t.exception());
        return o;
    }

    private JsonNode trace(String id) {
        long[] key;
        try {
            key = TraceKey.parse(id);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        RecordedLog.TreeView view = log.tree((int) key[0], key[1]);
        if (view == null) throw ApiError.notFound("trace " + id + ": no request with this id in the log");
        JoinedTree tree = view.tree();
        Map<String, TreeNode> measured = new HashMap<>();
        if (view.measured() != null) {
            for (TraceTree p : view.measured().pieces()) for (TreeNode n : p.nodes()) measured.put(p.traceId() + ":" + n.orderIndex(), n);
        }
        ObjectNode o = JSON.objectNode();
        o.set("summary", summary(view.summary()));
        o.put("corrected", view.measured() != null);
        o.put("truncated", tree.truncated());
        o.put("pieces", tree.pieces().size());
        ArrayNode threads = o.putArray("threads");
        tree.threads().forEach(t -> threads.add(t.name()));
        ArrayNode rows = o.putArray("rows");
        for (JoinedTree.Row row : tree.rows()) {
            ObjectNode r = rows.addObject();
            r.put("depth", row.depth());
            r.put("thread", row.piece().thread().name());
            r.put("trace", Long.toHexString(row.piece().traceId()));
            if (row.event() != null) {
                r.put("kind", "event");
                r.put("type", row.event().type());
                r.put("startOffsetNanos", row.event().wallNanos() - log.startNanos());
                r.put("fields", row.event().fields());
                continue;
            }
            TreeNode n = row.node();
            r.put("kind", "execution");
            r.put("operation", n.operation().name());
            r.put("order", n.orderIndex());
            r.put("startOffsetNanos", n.startWallNanos() - log.startNanos());
            unknownIfNegative(r, "wallInclusiveNanos", n.wallInclusive());
            unknownIfNegative(r, "wallExclusiveNanos", n.wallExclusive());
            unknownIfNegative(r, "cpuInclusiveNanos", n.cpuInclusive());
            unknownIfNegative(r, "cpuExclusiveNanos", n.cpuExclusive());
            r.put("exception", n.exception());
            if (row.handoff() != null && row.handoff().handedOff()) r.put("handoffWaitNanos", row.handoff().handoffWaitNanos());
            TreeNode m = measured.get(row.piece().traceId() + ":" + n.orderIndex());
            if (m != null) {
                unknownIfNegative(r, "measuredWallInclusiveNanos", m.wallInclusive());
                unknownIfNegative(r, "measuredCpuInclusiveNanos", m.cpuInclusive());
            }
        }
        return o;
    }

    private JsonNode timeseries(Query q) {
        String operation = q.text("operation");
        if (operation == null) throw ApiError.badRequest("operation: required (an operation name from /api/operations)");
        List<RecordedLog.Bucket> buckets = log.timeseries(operation);
        if (buckets == null) throw ApiError.notFound("operation: no execution of '" + operation + "' in the log");
        long width = log.result().statistics().bucketNanos();
        long origin = log.result().statistics().originNanos() - log.startNanos();
        ObjectNode o = JSON.objectNode();
        o.put("operation", operation);
        o.put("bucketNanos", width);
        o.put("originOffsetNanos", origin);
        ArrayNode arr = o.putArray("buckets");
        for (RecordedLog.Bucket b : buckets) {
            ObjectNode x = arr.addObject();
            x.put("startOffsetNanos", origin + b.index() * width);
            x.put("calls", b.calls());
            x.put("callsPerSecond", b.callsPerSecond());
            unknownIfNegative(x, "mean", b.meanNanos());
            unknownIfNegative(x, "p50", b.p50());
            unknownIfNegative(x, "p90", b.p90());
            unknownIfNegative(x, "p99", b.p99());
            unknownIfNegative(x, "max", b.max());
        }
        return o;
    }

    /**
     * The operations executed at depth 0 (requests entering a thread) with their demands, for the
     * what-if form: first those that start requests (root pieces), then those that start pieces
     * handed off to other threads.
     */
    private JsonNode demands() {
        Set<String> requestRoots = new HashSet<>();
        for (TraceSummary t : log.index().traces()) requestRoots.add(t.operation().name());
        record Row(String group, DemandCollector.OperationDemand demand) {}
        List<Row> rows = new ArrayList<>();
        for (DemandCollector.GroupDemands g : log.result().demands().groups()) {
            for (DemandCollector.OperationDemand d : g.operations()) if (d.roots() > 0) rows.add(new Row(g.name(), d));
        }
        rows.sort(Comparator.comparing((Row r) -> !requestRoots.contains(r.demand().operation().name()))
                .thenComparing(r -> -r.demand().roots()));
        ArrayNode out = JSON.arrayNode();
        for (Row r : rows) {
            DemandCollector.OperationDemand d = r.demand();
            ObjectNode o = out.addObject();
            o.put("group", r.group());
            o.put("operation", d.operation().name());
            o.put("count", d.count());
            o.put("roots", d.roots());
            o.put("meanWallNanos", d.meanWallNanos());
            unknownIfNegative(o, "meanCpuNanos", d.meanCpuNanos());
        }
        return out;
    }

    private JsonNode whatIf(Query q) {
        String operation = q.text("operation");
        if (operation == null) throw ApiError.badRequest("operation: required (a request operation from /api/demands)");
        DemandCollector.OperationDemand demand = null;
        for (DemandCollector.GroupDemands g : log.result().demands().groups()) {
            for (DemandCollector.OperationDemand d : g.operations()) if (d.roots() > 0 && d.operation().name().equals(operation)) demand = d;
        }
        if (demand == null) throw ApiError.notFound("operation: '" + operation + "' is not a request operation (depth 0) in the log");
        boolean cpuKnown = demand.meanCpuNanos() >= 0;
        double servantMs = (cpuKnown ? demand.meanCpuNanos() : demand.meanWallNanos()) / 1e6;
        Strategy strategy;
        try {
            strategy = Strategy.parse(q.text("strategy") == null ? "thread-pool" : q.text("strategy"));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("strategy: " + e.getMessage());
        }
        WhatIf.Question question;
        try {
            question = new WhatIf.Question(servantMs, strategy, (int) q.whole("poolSize", 4, 1, 1024), (int) q.whole("cpus", 1, 1, 1024),
                    (int) q.whole("clientsFrom", 1, 1, WhatIf.MAX_CLIENTS), (int) q.whole("clientsTo", 32, 1, WhatIf.MAX_CLIENTS),
                    (int) q.whole("points", 8, 1, WhatIf.MAX_POINTS), q.whole("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        WhatIf.Prediction p = WhatIf.predict(question);
        ObjectNode o = JSON.objectNode();
        o.put("operation", operation);
        o.put("servantMs", servantMs);
        o.put("demand", cpuKnown ? "cpu" : "wall");
        o.put("note", cpuKnown ? "servant demand: the mean CPU time of " + operation
                : "no CPU times in the log: the mean wall time of " + operation + " is taken as its CPU demand (record with cpu.time=on for a better one)");
        o.put("strategy", strategy.cliName());
        o.put("poolSize", question.poolSize());
        o.put("cpus", question.cpus());
        o.put("knee", p.knee());
        o.put("kneeRule", "the load with the highest power (throughput / response time)");
        ArrayNode pts = o.putArray("points");
        for (WhatIf.Point pt : p.points()) {
            ObjectNode x = pts.addObject();
            x.put("clients", pt.clients());
            unknownIfNegative(x, "responseTimeMs", pt.responseTimeMs());
            unknownIfNegative(x, "responseTimeCi95Ms", pt.responseTimeCi95Ms());
            unknownIfNegative(x, "throughputPerSecond", pt.throughputPerSecond());
            unknownIfNegative(x, "cpuUtilization", pt.cpuUtilization());
        }
        return o;
    }

    /** Puts {@code v}, or null when it is negative ({@link Execution#UNKNOWN} and the -1 of "none") or NaN. */
    static void unknownIfNegative(ObjectNode o, String name, double v) {
        if (Double.isNaN(v) || v < 0) o.putNull(name);
        else if (v == Math.rint(v) && Math.abs(v) < 1e15) o.put(name, (long) v);
        else o.put(name, v);
    }
}
