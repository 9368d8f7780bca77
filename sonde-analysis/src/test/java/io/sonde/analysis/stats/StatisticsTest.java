package io.sonde.analysis.stats;

import static io.sonde.analysis.Golden.TID;
import static io.sonde.analysis.Golden.US;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import io.sonde.analysis.ScriptedSource;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class StatisticsTest {
    static final long S = 1_000_000_000L;

    /** Three golden traces at 0 s, 1 s and 2.5 s; the log spans 0..3 s. */
    static ScriptedSource threeTraces() {
        ScriptedSource s = Golden.defs().range(0, 3 * S);
        Golden.orderTrace(s, 0);
        Golden.orderTrace(s, S);
        Golden.orderTrace(s, 2 * S + S / 2);
        return s;
    }

    static OperationStats stats(AnalysisResult r, String op) {
        for (OperationStats s : r.statistics().all()) if (s.operation().name().equals(op)) return s;
        return null;
    }

    @Test
    void perOperationStatisticsOfTheGoldenTracesAreExact() {
        AnalysisResult r = Analyzer.run(threeTraces(), new AnalysisOptions());
        OperationStats q = stats(r, "Db.query");
        assertThat(q.count()).isEqualTo(6);
        // inclusive: 200,300 three times. Nearest rank: p50 = 3rd of 6 = 200, p90 = 6th = 300.
        assertThat(q.inclusive().mean()).isEqualTo(250.0 * US);
        assertThat(q.inclusive().percentile(50)).isEqualTo(200 * US);
        assertThat(q.inclusive().percentile(90)).isEqualTo(300 * US);
        assertThat(q.inclusive().percentile(99)).isEqualTo(300 * US);
        assertThat(q.inclusive().max()).isEqualTo(300 * US);
        assertThat(q.inclusive().sum()).isEqualTo(1500 * US);
        assertThat(q.exclusive().sum()).isEqualTo(1500 * US);
        assertThat(q.cpuInclusiveMean()).isEqualTo(185.0 * US);
        OperationStats order = stats(r, "Shop.order");
        assertThat(order.count()).isEqualTo(3);
        assertThat(order.inclusive().sum()).isEqualTo(4500 * US);
        assertThat(order.exclusive().sum()).isEqualTo(2100 * US);
        assertThat(order.exclusive().percentile(50)).isEqualTo(700 * US);
        assertThat(order.cpuExclusiveMean()).isEqualTo(400.0 * US);
        // Hot spots by total exclusive time: order 2100, query 1500, price 900.
        assertThat(r.statistics().hotSpots(2)).extracting(o -> o.operation().name()).containsExactly("Shop.order", "Db.query");
        assertThat(r.statistics().totalExclusive()).isEqualTo(4500 * US);
    }

    @Test
    void callsPerSecondOverTime() {
        AnalysisResult r = Analyzer.run(threeTraces(), new AnalysisOptions());
        assertThat(r.statistics().bucketNanos()).isEqualTo(S);
        OperationStats q = stats(r, "Db.query");
        assertThat(r.statistics().buckets()).isEqualTo(3);
        assertThat(new long[] {q.callsInBucket(0), q.callsInBucket(1), q.callsInBucket(2)}).containsExactly(2, 2, 2);
        assertThat(q.meanWallInBucket(1)).isEqualTo(250.0 * US);
    }

    @Test
    void warmUpAndCoolDownCutExecutionsByTheirStart() {
        AnalysisOptions o = new AnalysisOptions();
        o.skipWarmupSeconds = 0.5;
        o.skipCooldownSeconds = 0.75; // the window is [0.5 s, 2.25 s): only the trace at 1 s
        AnalysisResult r = Analyzer.run(threeTraces(), o);
        assertThat(stats(r, "Shop.order").count()).isEqualTo(1);
        assertThat(stats(r, "Db.query").count()).isEqualTo(2);
        assertThat(r.trees()).hasSize(1);
        assertThat(r.trees().get(0).root().startWallNanos()).isEqualTo(ScriptedSource.WALL_OFFSET + S);
    }

    @Test
    void explicitTimeWindowAndOperationPattern() {
        AnalysisOptions o = new AnalysisOptions();
        o.fromSeconds = 0.9;
        o.operationPattern = Pattern.compile("query");
        AnalysisResult r = Analyzer.run(threeTraces(), o);
        assertThat(r.statistics().all()).extracting(s -> s.operation().name()).containsExactly("Db.query");
        assertThat(stats(r, "Db.query").count()).isEqualTo(4);
        // Trees containing a matching operation are kept whole.
        assertThat(r.trees()).hasSize(2);
        assertThat(r.trees().get(0).nodeCount()).isEqualTo(4);
    }

    @Test
    void threadPatternSkipsOtherThreadsEntirely() {
        ScriptedSource s = threeTraces().thread(9, "gc-helper").trace(9, 5).enter(9, 3, 10).exit(9, 3, 20);
        AnalysisOptions o = new AnalysisOptions();
        o.threadPattern = Pattern.compile("^worker-");
        AnalysisResult r = Analyzer.run(s, o);
        assertThat(stats(r, "Db.query").count()).isEqualTo(6);
        assertThat(r.counters().filteredThreadRecords).isEqualTo(3);
        o.threadPattern = Pattern.compile("gc");
        AnalysisResult gc = Analyzer.run(s, o);
        assertThat(stats(gc, "Db.query").count()).isEqualTo(1);
        assertThat(gc.trees()).extracting(t -> t.thread().name()).containsExactly("gc-helper");
    }

    @Test
    void latencyDistributionIsExactUpToItsLimitAndCloseBeyond() {
        LatencyDistribution d = new LatencyDistribution();
        int n = LatencyDistribution.EXACT_LIMIT;
        for (int i = n; i >= 1; i--) d.record(i * 1000L);
        assertThat(d.isExact()).isTrue();
        assertThat(d.percentile(50)).isEqualTo(n / 2 * 1000L);
        assertThat(d.percentile(99)).isEqualTo((long) Math.ceil(0.99 * n) * 1000L);
        assertThat(d.percentile(100)).isEqualTo(n * 1000L);
        for (int i = n + 1; i <= 100_000; i++) d.record(i * 1000L);
        assertThat(d.isExact()).isFalse();
        assertThat(d.count()).isEqualTo(100_000);
        assertThat(d.max()).isEqualTo(100_000_000L);
        assertThat(d.sum()).isEqualTo(1000L * 100_000L * 100_001L / 2);
        assertThat((double) d.percentile(50)).isCloseTo(50_000_000.0, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat((double) d.percentile(90)).isCloseTo(90_000_000.0, org.assertj.core.data.Percentage.withPercentage(1));
        long[] buckets = d.bucketCounts(10);
        long total = 0;
        for (long b : buckets) total += b;
        assertThat(total).isEqualTo(100_000);
    }

    @Test
    void textTimelineShowsCallsPerSecondPerColumn() {
        AnalysisResult r = Analyzer.run(threeTraces(), new AnalysisOptions());
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        io.sonde.analysis.TextReport.timeline(r, new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8), 2, 12);
        assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8).split("\\R")).containsExactly(
                "Calls per second over time (columns of 1 s from the window start):",
                String.format("%-40s %8s %8s %8s", "Shop.order", "1", "1", "1"),
                String.format("%-40s %8s %8s %8s", "Db.query", "2", "2", "2"));
        buf.reset();
        io.sonde.analysis.TextReport.timeline(r, new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8), 1, 2);
        assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8).split("\\R")).containsExactly(
                "Calls per second over time (columns of 2 s from the window start):",
                String.format("%-40s %8s %8s", "Shop.order", "1", "0.5"));
    }
}
