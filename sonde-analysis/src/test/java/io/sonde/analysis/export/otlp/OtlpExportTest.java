package io.sonde.analysis.export.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.JoinedTree;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import io.sonde.format.write.LogFileWriter;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP export against a real OTLP/HTTP receiver on 127.0.0.1 that decodes every request with
 * the protobuf classes; every span is checked against the call trees the analysis rebuilt from a
 * real log file (the kept joined trees, an oracle independent of the export's own bookkeeping).
 */
@Timeout(120)
class OtlpExportTest {
    static final UUID AGENT = UUID.fromString("0000000e-0000-4000-8000-00000000000e");
    static final long WALL = 1_763_800_000_000_000_000L;
    static final long MONO = 5_000_000_000L;
    static final long US = 1_000;
    static final String[] OPS = {"Shop.order", "Shop.price", "Db.query", "Pool.task"};
    static final long HTTP = 11, POOL_1 = 12, POOL_2 = 13;

    @TempDir
    Path dir;

    /** A log of {@code requests} requests on http-1, some handing work to pool-1 and from there to pool-2. */
    Path writeLog(long seed, int requests) throws IOException {
        LogFileWriter w = new LogFileWriter(dir, AGENT, 4242, "host-otlp", WALL, MONO);
        for (int i = 0; i < OPS.length; i++) w.probe(i + 1, OPS[i], "()V");
        w.string(1, "java.lang.IllegalStateException");
        w.thread(HTTP, "http-1").thread(POOL_1, "pool-1").thread(POOL_2, "pool-2");
        w.flushFrame();
        Random rnd = new Random(seed);
        long[] clock = {MONO + 1000 * US, 0};
        long traceIds = 100;
        for (int r = 0; r < requests; r++) {
            long root = traceIds++;
            w.traceStart(HTTP, root, 0, -1);
            int rootSize = tree(w, rnd, HTTP, 0, clock, new int[1]);
            if (rnd.nextInt(4) != 0) {
                long child = traceIds++;
                w.handoffStart(POOL_1, child, root, rnd.nextInt(rootSize), clock[0] - 5 * US);
                int childSize = tree(w, rnd, POOL_1, 0, clock, new int[1]);
                if (rnd.nextBoolean()) {
                    w.traceStart(POOL_2, traceIds++, child, rnd.nextInt(childSize));
                    tree(w, rnd, POOL_2, 0, clock, new int[1]);
                }
            }
            if (r % 16 == 15) w.flushFrame();
        }
        w.close();
        return w.segmentFile(0);
    }

    /** A random call tree; returns the number of executions in it. {@code clock}: mono time, CPU time. */
    private static int tree(LogFileWriter w, Random rnd, long tid, int depth, long[] clock, int[] order) throws IOException {
        int probe = 1 + rnd.nextInt(OPS.length);
        order[0]++;
        w.enterCpu(tid, probe, clock[0], clock[1]);
        clock[0] += (1 + rnd.nextInt(50)) * US;
        clock[1] += rnd.nextInt(30) * US;
        int callees = depth < 3 ? rnd.nextInt(3) : 0;
        for (int i = 0; i < callees; i++) tree(w, rnd, tid, depth + 1, clock, order);
        clock[0] += (1 + rnd.nextInt(50)) * US;
        clock[1] += rnd.nextInt(30) * US;
        if (rnd.nextInt(6) == 0) w.exitExceptionCpu(tid, probe, clock[0], clock[1], 1);
        else w.exitCpu(tid, probe, clock[0], clock[1]);
        return order[0];
    }

    static OtlpHttpSender.Settings fast(URI uri, int attempts) {
        return new OtlpHttpSender.Settings(uri, 4, attempts, Duration.ofMillis(10), Duration.ofMillis(200), Duration.ofSeconds(20),
                Duration.ofSeconds(60), null);
    }

    record Export(AnalysisResult result, OtlpHttpSender.Outcome outcome) {}

    static Export export(Path log, OtlpHttpSender.Settings settings, int batch) throws IOException {
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 10_000;
        try (OtlpHttpSender sender = new OtlpHttpSender(settings)) {
            OtlpSpanExport export = new OtlpSpanExport(sender, batch);
            o.extraListeners.add(export);
            AnalysisResult r = Analyzer.run(new LogSource(List.of(log)), o);
            export.flush();
            assertThat(export.spans()).isEqualTo(r.counters().executions);
            return new Export(r, sender.finish());
        }
    }

    static String attr(List<KeyValue> attrs, String key) {
        for (KeyValue kv : attrs) {
            if (kv.getKey().equals(key)) {
                return kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue()) : kv.getValue().getStringValue();
            }
        }
        return null;
    }

    static String key(long traceId, int order) {
        return Long.toHexString(traceId) + "/" + order;
    }

    @Test
    void everySpanMatchesTheLogWithParentsAcrossHandOffsTimesCpuAndErrors() throws IOException {
        Path log = writeLog(7, 60);
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            Export x = export(log, fast(receiver.uri(), 3), 64);
            long executions = x.result().counters().executions;
            assertThat(x.result().partial()).isFalse();
            assertThat(x.outcome().submitted()).isEqualTo(executions);
            assertThat(x.outcome().accepted()).isEqualTo(executions);
            assertThat(x.outcome().sent()).isEqualTo(executions);
            assertThat(x.outcome().rejected() + x.outcome().dropped()).isZero();
            assertThat(x.outcome().requests()).isEqualTo((executions + 63) / 64);
            assertThat(receiver.contentTypes()).isNotEmpty().allMatch("application/x-protobuf"::equals);

            List<OtlpReceiver.Received> got = receiver.spans();
            assertThat(got).hasSize((int) executions);
            Map<String, Span> byKey = new HashMap<>();
            for (OtlpReceiver.Received rs : got) {
                assertThat(attr(rs.resource().getAttributesList(), "host.name")).isEqualTo("host-otlp");
                assertThat(attr(rs.resource().getAttributesList(), "process.pid")).isEqualTo("4242");
                assertThat(attr(rs.resource().getAttributesList(), "sonde.agent.id")).isEqualTo(AGENT.toString());
                assertThat(attr(rs.resource().getAttributesList(), "service.name")).isNotBlank();
                Span s = rs.span();
                assertThat(s.getTraceId().size()).isEqualTo(16);
                assertThat(s.getSpanId().size()).isEqualTo(8);
                String k = Long.parseLong(attr(s.getAttributesList(), "sonde.trace"), 16) == 0 ? null
                        : attr(s.getAttributesList(), "sonde.trace") + "/" + attr(s.getAttributesList(), "sonde.order");
                assertThat(byKey.put(k, s)).as("one span per execution: %s", k).isNull();
            }
            assertThat(new HashSet<>(got.stream().map(g -> g.span().getSpanId()).toList())).hasSize(got.size());

            // the oracle: the analysis' own joined trees
            int checked = 0, handoffParents = 0, errors = 0, withCpu = 0;
            Set<Object> traceIds = new HashSet<>();
            List<JoinedTree> trees = x.result().joinedTrees();
            assertThat(trees).hasSize(60);
            for (JoinedTree jt : trees) {
                assertThat(jt.unlinked()).isFalse();
                Set<Object> idsOfThisTree = new HashSet<>();
                Span root = byKey.get(key(jt.root().traceId(), jt.root().root().orderIndex()));
                assertThat(root.getParentSpanId().isEmpty()).as("a request's root has no parent").isTrue();
                for (TraceTree piece : jt.pieces()) {
                    for (TreeNode n : piece.nodes()) {
                        Span s = byKey.get(key(piece.traceId(), n.orderIndex()));
                        assertThat(s).as("span of %s", key(piece.traceId(), n.orderIndex())).isNotNull();
                        checked++;
                        idsOfThisTree.add(s.getTraceId());
                        assertThat(s.getName()).isEqualTo(n.operation().name());
                        assertThat(s.getStartTimeUnixNano()).isEqualTo(n.startWallNanos());
                        assertThat(s.getEndTimeUnixNano() - s.getStartTimeUnixNano()).isEqualTo(n.wallInclusive());
                        assertThat(attr(s.getAttributesList(), "sonde.cpu_ns")).isEqualTo(Long.toString(n.cpuInclusive()));
                        if (n.cpuInclusive() > 0) withCpu++;
                        if (n.exception() != null) {
                            errors++;
                            assertThat(s.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
                            assertThat(attr(s.getAttributesList(), "exception.type")).isEqualTo("java.lang.IllegalStateException");
                        } else {
                            assertThat(s.getStatus().getCode()).isEqualTo(Status.StatusCode.STATUS_CODE_UNSET);
                            assertThat(attr(s.getAttributesList(), "exception.type")).isNull();
                        }
                        assertThat(attr(s.getAttributesList(), "thread.name")).isEqualTo(piece.thread().name());
                        for (TreeNode c : n.children()) {
                            assertThat(byKey.get(key(piece.traceId(), c.orderIndex())).getParentSpanId()).isEqualTo(s.getSpanId());
                        }
                        for (TraceTree h : n.handoffs()) {
                            assertThat(byKey.get(key(h.traceId(), h.root().orderIndex())).getParentSpanId())
                                    .as("hand-off parent of piece %x", h.traceId()).isEqualTo(s.getSpanId());
                            handoffParents++;
                        }
                    }
                }
                assertThat(idsOfThisTree).as("one OTLP trace per request, hand-offs included").hasSize(1);
                assertThat(traceIds.add(idsOfThisTree.iterator().next())).as("requests get distinct trace ids").isTrue();
            }
            assertThat(checked).isEqualTo(executions);
            // the log exercised what the checks are about
            assertThat(handoffParents).isGreaterThan(20);
            assertThat(x.result().counters().linkedPieces).isEqualTo(handoffParents);
            assertThat(errors).isGreaterThan(10);
            assertThat(withCpu).isGreaterThan(10);
        }
    }

    @Test
    void aRootPieceStartsAtTheLogsWallClockTime() throws IOException {
        Path log = writeLog(3, 1);
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            export(log, fast(receiver.uri(), 3), 512);
            Span first = receiver.spans().stream().map(OtlpReceiver.Received::span)
                    .filter(s -> s.getParentSpanId().isEmpty()).findFirst().orElseThrow();
            // written at mono MONO + 1 ms, with the anchor (WALL, MONO)
            assertThat(first.getStartTimeUnixNano()).isEqualTo(WALL + 1000 * US);
        }
    }

    @Test
    void a503IsRetriedAndNothingIsLostOrDuplicated() throws IOException {
        Path log = writeLog(11, 20);
        try (OtlpReceiver receiver = new OtlpReceiver().failFirst(1, 503)) {
            Export x = export(log, fast(receiver.uri(), 3), 50);
            long executions = x.result().counters().executions;
            assertThat(x.outcome().retries()).isEqualTo(1);
            assertThat(x.outcome().requests()).isEqualTo((executions + 49) / 50 + 1);
            assertThat(x.outcome().accepted()).isEqualTo(executions);
            assertThat(x.outcome().dropped()).isZero();
            assertThat(receiver.spans()).hasSize((int) executions);
            assertThat(new HashSet<>(receiver.spans().stream().map(r -> r.span().getSpanId()).toList())).hasSize((int) executions);
        }
    }

    @Test
    void retriesThatRunOutDropTheBatchAndCountIt() throws IOException {
        Path log = writeLog(12, 5);
        try (OtlpReceiver receiver = new OtlpReceiver().failFirst(2, 429)) {
            Export x = export(log, fast(receiver.uri(), 2), 100_000);
            assertThat(x.outcome().requests()).isEqualTo(2);
            assertThat(x.outcome().dropped()).isEqualTo(x.result().counters().executions);
            assertThat(x.outcome().accepted()).isZero();
            assertThat(x.outcome().problem()).contains("HTTP 429").contains("gave up after 2 attempts");
        }
    }

    @Test
    void partialSuccessIsCountedAsRejected() throws IOException {
        Path log = writeLog(13, 20);
        try (OtlpReceiver receiver = new OtlpReceiver().rejectPerRequest(2)) {
            Export x = export(log, fast(receiver.uri(), 3), 40);
            OtlpHttpSender.Outcome o = x.outcome();
            assertThat(o.rejected()).isEqualTo(2 * o.requests());
            assertThat(o.accepted()).isEqualTo(o.submitted() - o.rejected());
            assertThat(o.complete()).isFalse();
            assertThat(o.problem()).contains("rejected").contains("too old");
        }
    }

    @Test
    void aNonRetryableAnswerRejectsTheBatchWithoutRetry() throws IOException {
        Path log = writeLog(14, 5);
        try (OtlpReceiver receiver = new OtlpReceiver().failFirst(1, 400)) {
            Export x = export(log, fast(receiver.uri(), 5), 100_000);
            assertThat(x.outcome().requests()).isEqualTo(1);
            assertThat(x.outcome().rejected()).isEqualTo(x.result().counters().executions);
            assertThat(x.outcome().problem()).contains("HTTP 400");
        }
    }

    @Test
    void anUnreachableReceiverDropsEverythingWithAClearProblem() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI uri = URI.create("http://127.0.0.1:" + port + "/v1/traces");
        Path log = writeLog(15, 20);
        Export x = export(log, fast(uri, 3), 16);
        assertThat(x.outcome().accepted()).isZero();
        assertThat(x.outcome().dropped()).isEqualTo(x.result().counters().executions);
        // the first batch tried 3 times; the rest were dropped without waiting again
        assertThat(x.outcome().requests()).isEqualTo(3);
        assertThat(x.outcome().problem()).contains("cannot reach the OTLP receiver at " + uri);
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> OtlpHttpSender.Settings.of(URI.create("ftp://x/v1/traces")))
                .hasMessageContaining("ftp://x/v1/traces").hasMessageContaining("http");
        assertThatThrownBy(() -> new OtlpSpanExport(null, 0)).hasMessageContaining("batch size");
        assertThat(Execution.UNKNOWN).isNegative();
    }
}
