package io.sonde.analysis.export;

import io.sonde.analysis.budget.BudgetSwitch;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.stats.StatisticsCollector;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.JoinedTree;
import io.sonde.analysis.tree.TreeEvent;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeCounters;
import io.sonde.analysis.tree.TreeNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes an {@link AnalysisResult} as JSON, schema {@value #SCHEMA} (documented in
 * docs/analysis.md). All times are integer nanoseconds; unknown CPU values are null.
 */
public final class JsonReport {
    public static final String SCHEMA = "sonde-analysis/1";

    private JsonReport() {}

    public static void write(AnalysisResult r, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(r, out);
        }
    }

    public static void write(AnalysisResult r, OutputStream out) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            g.writeBooleanField("partial", r.partial());
            g.writeArrayFieldStart("problems");
            for (InputProblem p : r.problems()) {
                g.writeStartObject();
                g.writeStringField("source", p.source());
                g.writeNumberField("offset", p.offset());
                g.writeStringField("message", p.message());
                g.writeBooleanField("error", p.error());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("budgetSwitches");
            for (BudgetSwitch s : r.budgetSwitches()) {
                g.writeStartObject();
                g.writeNumberField("agent", s.agent());
                g.writeNumberField("epochNanos", s.wallNanos());
                g.writeStringField("probe", s.probe());
                g.writeStringField("reason", s.reason());
                g.writeNumberField("executions", s.executions());
                g.writeNumberField("sharePercent", s.share());
                g.writeNumberField("meanNanos", s.meanNanos());
                g.writeNumberField("depth", s.depth());
                g.writeNumberField("overheadPercent", s.overhead());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("inputs");
            for (String s : r.inputs()) g.writeString(s);
            g.writeEndArray();
            g.writeArrayFieldStart("agents");
            for (AgentInfo a : r.agents()) {
                g.writeStartObject();
                g.writeNumberField("index", a.index());
                g.writeStringField("id", a.id().toString());
                g.writeStringField("host", a.host());
                g.writeNumberField("pid", a.pid());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeObjectFieldStart("log");
            nullableLong(g, "startEpochNanos", r.logRange() == null ? null : r.logRange().startNanos());
            nullableLong(g, "endEpochNanos", r.logRange() == null ? null : r.logRange().endNanos());
            g.writeEndObject();
            g.writeObjectFieldStart("window");
            nullableLong(g, "fromEpochNanos", r.window().fromNanos() == Long.MIN_VALUE ? null : r.window().fromNanos());
            nullableLong(g, "toEpochNanos", r.window().toNanos() == Long.MAX_VALUE ? null : r.window().toNanos());
            g.writeEndObject();
            g.writeObjectFieldStart("filters");
            g.writeStringField("threadPattern", r.options().threadPattern == null ? null : r.options().threadPattern.pattern());
            g.writeStringField("operationPattern", r.options().operationPattern == null ? null : r.options().operationPattern.pattern());
            g.writeNumberField("skipWarmupSeconds", r.options().skipWarmupSeconds);
            g.writeNumberField("skipCooldownSeconds", r.options().skipCooldownSeconds);
            g.writeEndObject();
            g.writeObjectFieldStart("perturbationCorrection");
            g.writeBooleanField("applied", !r.probeCost().isNone());
            g.writeNumberField("wallNanosPerProbe", r.probeCost().wallNanos());
            g.writeNumberField("cpuNanosPerProbe", r.probeCost().cpuNanos());
            g.writeEndObject();
            counters(g, r.counters());
            StatisticsCollector st = r.statistics();
            List<OperationStats> ops = st.all();
            g.writeArrayFieldStart("operations");
            for (OperationStats s : ops) operation(g, s);
            g.writeEndArray();
            g.writeArrayFieldStart("hotSpots");
            long total = st.totalExclusive();
            for (OperationStats s : st.hotSpots(Math.min(ops.size(), 20))) {
                g.writeStartObject();
                g.writeStringField("operation", s.operation().name());
                g.writeNumberField("exclusiveTotalNanos", s.exclusive().sum());
                g.writeNumberField("share", total == 0 ? 0 : (double) s.exclusive().sum() / total);
                g.writeEndObject();
            }
            g.writeEndArray();
            timeline(g, st, ops);
            g.writeArrayFieldStart("joinedTrees");
            for (JoinedTree j : r.joinedTrees()) joined(g, j);
            g.writeEndArray();
            g.writeArrayFieldStart("trees");
            for (JoinedTree j : r.joinedTrees()) for (TraceTree t : j.pieces()) tree(g, t, j);
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void counters(JsonGenerator g, TreeCounters c) throws IOException {
        g.writeObjectFieldStart("counters");
        g.writeNumberField("records", c.records);
        g.writeNumberField("enters", c.enters);
        g.writeNumberField("exits", c.exits);
        g.writeNumberField("events", c.events);
        g.writeNumberField("executions", c.executions);
        g.writeNumberField("traces", c.traces);
        g.writeNumberField("joinedTraces", c.joinedTraces);
        g.writeNumberField("linkedPieces", c.linkedPieces);
        g.writeNumberField("unlinkedPieces", c.unlinkedPieces);
        g.writeNumberField("handoffs", c.handoffs);
        g.writeNumberField("gaps", c.gaps);
        g.writeNumberField("droppedRecords", c.droppedRecords);
        g.writeNumberField("discardedOpenExecutions", c.discardedOpenExecutions);
        g.writeNumberField("mismatchedExits", c.mismatchedExits);
        g.writeNumberField("unmatchedExits", c.unmatchedExits);
        g.writeNumberField("skippedUnsynchronised", c.skippedUnsynchronised);
        g.writeNumberField("brokenTraces", c.brokenTraces);
        g.writeNumberField("brokenExecutions", c.brokenExecutions);
        g.writeNumberField("openAtEnd", c.openAtEnd);
        g.writeNumberField("filteredThreadRecords", c.filteredThreadRecords);
        g.writeNumberField("trailers", c.trailers);
        g.writeNumberField("trailerProduced", c.trailerProduced);
        g.writeNumberField("trailerWritten", c.trailerWritten);
        g.writeEndObject();
    }

    private static void operation(JsonGenerator g, OperationStats s) throws IOException {
        g.writeStartObject();
        g.writeStringField("operation", s.operation().name());
        g.writeStringField("signature", s.operation().signature());
        g.writeNumberField("count", s.count());
        g.writeNumberField("exceptions", s.exceptions());
        distribution(g, "inclusiveNanos", s.inclusive());
        distribution(g, "exclusiveNanos", s.exclusive());
        g.writeNumberField("handoffs", s.handoffs());
        if (s.handoffWait() != null) distribution(g, "handoffWaitNanos", s.handoffWait());
        g.writeObjectFieldStart("cpu");
        g.writeNumberField("count", s.cpuCount());
        nullableDouble(g, "inclusiveMeanNanos", s.cpuInclusiveMean());
        g.writeNumberField("inclusiveTotalNanos", s.cpuInclusiveSum());
        nullableDouble(g, "exclusiveMeanNanos", s.cpuExclusiveMean());
        g.writeNumberField("exclusiveTotalNanos", s.cpuExclusiveSum());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void distribution(JsonGenerator g, String name, LatencyDistribution d) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("mean", d.mean());
        g.writeNumberField("p50", d.percentile(50));
        g.writeNumberField("p90", d.percentile(90));
        g.writeNumberField("p99", d.percentile(99));
        g.writeNumberField("max", d.max());
        g.writeNumberField("total", d.sum());
        g.writeBooleanField("exact", d.isExact());
        g.writeEndObject();
    }

    private static void timeline(JsonGenerator g, StatisticsCollector st, List<OperationStats> ops) throws IOException {
        int buckets = st.buckets();
        double bucketSeconds = st.bucketNanos() / 1e9;
        g.writeObjectFieldStart("timeline");
        g.writeNumberField("originEpochNanos", st.originNanos());
        g.writeNumberField("bucketNanos", st.bucketNanos());
        g.writeNumberField("buckets", buckets);
        g.writeArrayFieldStart("operations");
        for (OperationStats s : ops) {
            g.writeStartObject();
            g.writeStringField("operation", s.operation().name());
            g.writeArrayFieldStart("calls");
            for (int b = 0; b < buckets; b++) g.writeNumber(s.callsInBucket(b));
            g.writeEndArray();
            g.writeArrayFieldStart("callsPerSecond");
            for (int b = 0; b < buckets; b++) g.writeNumber(s.callsInBucket(b) / bucketSeconds);
            g.writeEndArray();
            g.writeArrayFieldStart("meanInclusiveNanos");
            for (int b = 0; b < buckets; b++) {
                double m = s.meanWallInBucket(b);
                if (m < 0) g.writeNull();
                else g.writeNumber(m);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void joined(JsonGenerator g, JoinedTree j) throws IOException {
        g.writeStartObject();
        g.writeNumberField("agent", j.root().thread().agent().index());
        g.writeNumberField("rootTraceId", j.root().traceId());
        g.writeBooleanField("unlinked", j.unlinked());
        g.writeBooleanField("truncated", j.truncated());
        g.writeNumberField("nodeCount", j.nodeCount());
        g.writeArrayFieldStart("pieces");
        for (TraceTree p : j.pieces()) g.writeNumber(p.traceId());
        g.writeEndArray();
        g.writeArrayFieldStart("threads");
        for (var t : j.threads()) g.writeString(t.name());
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void tree(JsonGenerator g, TraceTree t, JoinedTree j) throws IOException {
        g.writeStartObject();
        g.writeNumberField("agent", t.thread().agent().index());
        g.writeNumberField("threadId", t.thread().threadId());
        g.writeStringField("thread", t.thread().name());
        g.writeNumberField("traceId", t.traceId());
        g.writeNumberField("parentTraceId", t.parentTraceId());
        g.writeNumberField("parentOrderIndex", t.parentOrderIndex());
        if (t.handedOff()) g.writeNumberField("handoffWaitNanos", t.handoffWaitNanos());
        g.writeNumberField("rootTraceId", j.root().traceId());
        g.writeBooleanField("unlinked", j.unlinked() && t == j.root());
        g.writeBooleanField("truncated", t.truncated());
        g.writeBooleanField("broken", t.broken());
        g.writeArrayFieldStart("nodes");
        for (TreeNode n : t.nodes()) {
            g.writeStartObject();
            g.writeStringField("operation", n.operation().name());
            g.writeNumberField("depth", n.depth());
            g.writeNumberField("order", n.orderIndex());
            g.writeNumberField("startEpochNanos", n.startWallNanos());
            nullableLong(g, "wallInclusiveNanos", n.wallInclusive() == Execution.UNKNOWN ? null : n.wallInclusive());
            nullableLong(g, "wallExclusiveNanos", n.wallExclusive() == Execution.UNKNOWN ? null : n.wallExclusive());
            nullableLong(g, "cpuInclusiveNanos", n.cpuInclusive() == Execution.UNKNOWN ? null : n.cpuInclusive());
            nullableLong(g, "cpuExclusiveNanos", n.cpuExclusive() == Execution.UNKNOWN ? null : n.cpuExclusive());
            g.writeStringField("exception", n.exception());
            if (!n.events().isEmpty()) {
                g.writeArrayFieldStart("events");
                for (TreeEvent e : n.events()) {
                    g.writeStartObject();
                    g.writeStringField("type", e.type());
                    g.writeNumberField("epochNanos", e.wallNanos());
                    g.writeStringField("fields", e.fields());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void nullableLong(JsonGenerator g, String name, Long v) throws IOException {
        if (v == null) g.writeNullField(name);
        else g.writeNumberField(name, v);
    }

    private static void nullableDouble(JsonGenerator g, String name, double v) throws IOException {
        if (v < 0) g.writeNullField(name);
        else g.writeNumberField(name, v);
    }
}
