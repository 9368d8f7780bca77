package io.sonde.dashboard.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.export.JsonReport;
import io.sonde.analysis.input.LogSource;
import io.sonde.dashboard.TestLogs;
import io.sonde.dashboard.log.RecordedLog;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The JSON API over a log recorded through the real API: its numbers are the analysis' numbers. */
@Timeout(120)
class LogApiTest {
    @TempDir
    static Path dir;
    static LogApi api;
    static JsonNode analyzeJson;

    @BeforeAll
    static void record() throws Exception {
        TestLogs.record(dir);
        api = new LogApi(RecordedLog.open(List.of(dir), ProbeCost.NONE));
        // what `sonde analyze --json --bucket W` writes for the same log, W the dashboard's bucket width
        AnalysisOptions options = new AnalysisOptions();
        options.bucketNanos = get("/api/log").get("bucketNanos").asLong();
        options.keepTrees = TestLogs.THREADS * TestLogs.REQUESTS; // every tree, to match any by trace id
        assertThat(options.bucketNanos).isPositive();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReport.write(Analyzer.run(new LogSource(List.of(dir)), options), out);
        analyzeJson = new ObjectMapper().readTree(out.toByteArray());
    }

    static JsonNode get(String path, String... kv) {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < kv.length; i += 2) q.append(q.length() == 0 ? "" : "&").append(kv[i]).append('=').append(kv[i + 1]);
        return api.get(path, new Query(q.toString()));
    }

    @Test
    void operationsEqualTheAnalysisJson() {
        JsonNode ops = get("/api/operations");
        assertThat(ops.isArray()).isTrue();
        assertThat(ops).hasSize(3);
        Map<String, JsonNode> expected = new HashMap<>();
        for (JsonNode o : analyzeJson.get("operations")) expected.put(o.get("operation").asText(), o);
        int n = TestLogs.THREADS * TestLogs.REQUESTS;
        int failures = TestLogs.THREADS * (TestLogs.REQUESTS / TestLogs.FAIL_EVERY);
        for (JsonNode o : ops) {
            JsonNode e = expected.get(o.get("operation").asText());
            assertThat(e).as(o.toString()).isNotNull();
            assertThat(o.get("count").asLong()).isEqualTo(e.get("count").asLong()).isEqualTo(n);
            assertThat(o.get("errors").asLong()).isEqualTo(e.get("exceptions").asLong());
            for (String p : List.of("p50", "p90", "p99", "max", "total")) {
                assertThat(o.get(p).asLong()).as(p).isEqualTo(e.get("inclusiveNanos").get(p).asLong());
            }
            assertThat(o.get("p50").asLong()).isPositive().isLessThanOrEqualTo(o.get("p99").asLong());
            assertThat(o.get("cpuMean").isNull()).isFalse();
        }
        assertThat(expected.get("app.Dao.query").get("exceptions").asLong()).isEqualTo(failures);
    }

    @Test
    void traceSearchFiltersByOperationDurationAndTime() {
        int n = TestLogs.THREADS * TestLogs.REQUESTS;
        JsonNode all = get("/api/traces", "limit", "1000");
        assertThat(all.get("matches").asLong()).isEqualTo(n);
        assertThat(all.get("traces")).hasSize(n);
        long previous = Long.MIN_VALUE;
        for (JsonNode t : all.get("traces")) {
            assertThat(t.get("operation").asText()).isEqualTo("app.Service.handle");
            assertThat(t.get("startOffsetNanos").asLong()).isGreaterThanOrEqualTo(previous);
            previous = t.get("startOffsetNanos").asLong();
        }
        long p90 = operation("app.Service.handle").get("p90").asLong();
        JsonNode slow = get("/api/traces", "minDurationNs", Long.toString(p90), "limit", "1000");
        assertThat(slow.get("matches").asLong()).isBetween(1L, (long) n);
        for (JsonNode t : slow.get("traces")) assertThat(t.get("durationNanos").asLong()).isGreaterThanOrEqualTo(p90);
        assertThat(get("/api/traces", "limit", "5").get("traces")).hasSize(5);
        assertThat(get("/api/traces", "operation", "app.Dao.query").get("matches").asLong()).isZero();
        assertThat(get("/api/traces", "from", "100000").get("matches").asLong()).isZero();
    }

    static JsonNode operation(String name) {
        for (JsonNode o : get("/api/operations")) if (o.get("operation").asText().equals(name)) return o;
        throw new AssertionError(name);
    }

    @Test
    void aTraceIsItsCallTreeWithWallAndCpuTimes() {
        JsonNode first = get("/api/traces", "limit", "1").get("traces").get(0);
        JsonNode tree = get("/api/traces/" + first.get("id").asText());
        JsonNode rows = tree.get("rows");
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).get("operation").asText()).isEqualTo("app.Service.handle");
        assertThat(rows.get(0).get("depth").asInt()).isZero();
        assertThat(rows.get(0).get("wallInclusiveNanos").asLong()).isEqualTo(first.get("durationNanos").asLong());
        assertThat(rows.get(1).get("operation").asText()).isEqualTo("app.Cache.get");
        assertThat(rows.get(2).get("operation").asText()).isEqualTo("app.Dao.query");
        long children = 0;
        for (int i = 1; i < 3; i++) {
            assertThat(rows.get(i).get("depth").asInt()).isEqualTo(1);
            assertThat(rows.get(i).get("cpuInclusiveNanos").isNull()).isFalse();
            children += rows.get(i).get("wallInclusiveNanos").asLong();
        }
        assertThat(rows.get(0).get("wallExclusiveNanos").asLong()).isEqualTo(rows.get(0).get("wallInclusiveNanos").asLong() - children);
        assertThat(tree.get("corrected").asBoolean()).isFalse();
        // `sonde analyze` keeps the same request (matched by trace id: with two threads the order
        // of its kept trees need not be the dashboard's) with the same times
        long traceId = Long.parseUnsignedLong(rows.get(0).get("trace").asText(), 16);
        JsonNode analyzed = null;
        for (JsonNode t : analyzeJson.get("trees")) if (t.get("traceId").asLong() == traceId) analyzed = t.get("nodes");
        assertThat(analyzed).as("analyze keeps trace %x", traceId).isNotNull();
        for (int i = 0; i < 3; i++) {
            assertThat(rows.get(i).get("wallInclusiveNanos").asLong()).isEqualTo(analyzed.get(i).get("wallInclusiveNanos").asLong());
            assertThat(rows.get(i).get("cpuInclusiveNanos").asLong()).isEqualTo(analyzed.get(i).get("cpuInclusiveNanos").asLong());
        }
    }

    @Test
    void timeseriesAddsUpToTheOperationsCount() {
        JsonNode ts = get("/api/timeseries", "operation", "app.Dao.query");
        long calls = 0;
        for (JsonNode b : ts.get("buckets")) {
            calls += b.get("calls").asLong();
            if (b.get("calls").asLong() > 0) {
                assertThat(b.get("p50").asLong()).isPositive().isLessThanOrEqualTo(b.get("p99").asLong());
                assertThat(b.get("p99").asLong()).isLessThanOrEqualTo(b.get("max").asLong());
            } else {
                assertThat(b.get("p50").isNull()).isTrue();
            }
        }
        assertThat(calls).isPositive().isLessThanOrEqualTo(operation("app.Dao.query").get("count").asLong());
        // the timeline of `sonde analyze --json` has the same calls per bucket (executions that
        // start before the log's first frame are counted but on no bucket, in both)
        boolean compared = false;
        for (JsonNode o : analyzeJson.get("timeline").get("operations")) {
            if (!o.get("operation").asText().equals("app.Dao.query")) continue;
            assertThat(ts.get("buckets")).hasSize(o.get("calls").size());
            for (int b = 0; b < ts.get("buckets").size(); b++) {
                assertThat(ts.get("buckets").get(b).get("calls").asLong()).isEqualTo(o.get("calls").get(b).asLong());
                assertThat(ts.get("buckets").get(b).get("mean").isNull()).isEqualTo(o.get("meanInclusiveNanos").get(b).isNull());
            }
            compared = true;
        }
        assertThat(compared).isTrue();
    }

    @Test
    void whatIfPredictsAgainstLoadAndMarksTheKnee() {
        JsonNode demands = get("/api/demands");
        assertThat(demands.findValuesAsText("operation")).containsExactly("app.Service.handle");
        JsonNode p = get("/api/whatif", "operation", "app.Service.handle", "strategy", "thread-pool", "poolSize", "2",
                "cpus", "1", "clientsFrom", "1", "clientsTo", "16", "points", "4");
        assertThat(p.get("demand").asText()).isEqualTo("cpu");
        JsonNode pts = p.get("points");
        assertThat(pts).hasSize(4);
        assertThat(pts.get(0).get("clients").asInt()).isEqualTo(1);
        assertThat(pts.get(3).get("clients").asInt()).isEqualTo(16);
        for (JsonNode x : pts) {
            assertThat(x.get("responseTimeMs").asDouble()).isPositive();
            assertThat(x.get("throughputPerSecond").asDouble()).isPositive();
        }
        // more clients than the server can serve at once: response time grows with load
        assertThat(pts.get(3).get("responseTimeMs").asDouble()).isGreaterThan(pts.get(0).get("responseTimeMs").asDouble());
        assertThat(p.get("knee").asInt()).isBetween(0, 3);
    }

    @Test
    void badParametersAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> get("/api/traces", "minDurationNs", "fast")).isInstanceOf(ApiError.class)
                .hasMessageContaining("minDurationNs").hasMessageContaining("fast");
        assertThatThrownBy(() -> get("/api/traces", "limit", "0")).hasMessageContaining("limit");
        assertThatThrownBy(() -> get("/api/traces/zz")).hasMessageContaining("zz");
        assertThatThrownBy(() -> get("/api/traces/0-ffff")).satisfies(e -> assertThat(((ApiError) e).status()).isEqualTo(404));
        assertThatThrownBy(() -> get("/api/timeseries")).hasMessageContaining("operation");
        assertThatThrownBy(() -> get("/api/timeseries", "operation", "nope")).satisfies(e -> assertThat(((ApiError) e).status()).isEqualTo(404));
        assertThatThrownBy(() -> get("/api/whatif", "operation", "app.Service.handle", "strategy", "fifo")).hasMessageContaining("strategy");
        assertThatThrownBy(() -> get("/api/whatif", "operation", "app.Service.handle", "clientsFrom", "9", "clientsTo", "3"))
                .hasMessageContaining("clientsTo");
        assertThatThrownBy(() -> get("/api/nothing")).satisfies(e -> assertThat(((ApiError) e).status()).isEqualTo(404));
    }

    @Test
    void withAProbeCostTreesShowCorrectedAndMeasuredTimes() throws Exception {
        long cost = 1_000;
        LogApi corrected = new LogApi(RecordedLog.open(List.of(dir), new ProbeCost(cost, 0)));
        JsonNode first = corrected.get("/api/traces", new Query("limit=1")).get("traces").get(0);
        JsonNode tree = corrected.get("/api/traces/" + first.get("id").asText(), new Query(""));
        assertThat(tree.get("corrected").asBoolean()).isTrue();
        JsonNode root = tree.get("rows").get(0);
        // two executions nested in the root: its corrected time is the measured one less two probe pairs
        assertThat(root.get("wallInclusiveNanos").asLong()).isEqualTo(root.get("measuredWallInclusiveNanos").asLong() - 2 * cost);
        JsonNode plain = get("/api/traces/" + first.get("id").asText()).get("rows").get(0);
        assertThat(root.get("measuredWallInclusiveNanos").asLong()).isEqualTo(plain.get("wallInclusiveNanos").asLong());
        assertThat(plain.has("measuredWallInclusiveNanos")).isFalse();
        assertThat(corrected.get("/api/log", new Query("")).get("probeCostWallNanos").asLong()).isEqualTo(cost);
    }

    @Test
    void everyListedRequestOpensWithItsRootTime() {
        for (JsonNode t : get("/api/traces", "limit", "1000").get("traces")) {
            JsonNode root = get("/api/traces/" + t.get("id").asText()).get("rows").get(0);
            assertThat(root.get("wallInclusiveNanos").asLong()).as(t.get("id").asText()).isEqualTo(t.get("durationNanos").asLong());
        }
    }
}
