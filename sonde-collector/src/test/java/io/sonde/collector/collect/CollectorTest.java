package io.sonde.collector.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.collector.Collector;
import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.database.ArchiveDatabase;
import io.sonde.collector.database.DatabaseHandler;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.DecodingCounter;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.collector.receive.StreamSummary;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector with real pipelines (sonde-core's TCP writer) as agents over loopback: several
 * agents at once into archive, database and a decoding handler; the database checked against
 * sonde-analysis reading the archived segment files; slow and failing handlers isolated.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CollectorTest {
    @TempDir
    Path out;

    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();

    private Collector start(List<DataHandler> handlers, Map<String, String> options) throws Exception {
        return Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out, handlers, options),
                new ReceiverListener() {
                    @Override
                    public void failed(String peer, long offset, String problem, StreamSummary stream) {
                        failures.add(peer + " at " + offset + ": " + problem);
                    }
                }, notices::add);
    }

    /**
     * Runs real pipelines one after the other (one monitor per JVM) and, meanwhile, raw agents at
     * once on other threads; returns what each agent produced.
     */
    static Map<UUID, Long> runAgents(int port, int agents, int threads, int ops, int rawAgents) throws Exception {
        Map<UUID, Long> produced = new ConcurrentHashMap<>();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        List<Thread> raw = new ArrayList<>();
        for (int a = 0; a < rawAgents; a++) {
            RawAgent r = new RawAgent(a, 400);
            produced.put(r.agent, r.records);
            Thread t = new Thread(() -> {
                try {
                    r.send(port);
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "raw-agent-" + a);
            raw.add(t);
            t.start();
        }
        for (int a = 0; a < agents; a++) {
            TestAgents.Run r = TestAgents.run(port, 100 + a, threads, ops, Map.of());
            produced.put(r.agent(), r.produced());
        }
        for (Thread t : raw) {
            t.join(120_000);
        }
        assertThat(errors).isEmpty();
        assertThat(produced).hasSize(agents + rawAgents);
        return produced;
    }

    @Test
    void severalAgentsAtOnceFillArchiveAndDatabaseAsTheSegmentFilesSay() throws Exception {
        DecodingCounter counter = new DecodingCounter();
        Collector c = start(List.of(new ArchiveHandler(), new DatabaseHandler(), counter), Map.of());
        Map<UUID, Long> produced;
        try {
            produced = runAgents(c.port(), 2, 2, 400, 3);
            awaitTrailers(c, produced.keySet());
        } finally {
            c.stop();
        }
        assertThat(failures).isEmpty();
        assertThat(notices).isEmpty();
        assertThat(c.drained()).isTrue();
        long total = produced.values().stream().mapToLong(Long::longValue).sum();
        assertThat(counter.records()).as("records decoded from the envelopes").isEqualTo(total);
        assertThat(counter.corruptFrames()).isZero();
        for (HandlerStatus h : c.handlerStatus()) {
            assertThat(h.dropped()).as(h.describe()).isZero();
            assertThat(h.errors()).as(h.describe()).isZero();
        }

        // naming: every agent, with its node data, disconnected
        List<AgentInfo> agents = c.agents();
        assertThat(agents).extracting(AgentInfo::agentId).containsExactlyInAnyOrderElementsOf(produced.keySet());
        assertThat(agents).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(AgentInfo.DISCONNECTED);
            assertThat(a.host()).isNotEmpty();
            assertThat(a.pid()).isPositive();
        });

        ReceiverStatus rs = c.receiverStatus();
        try (Connection db = ArchiveDatabase.openReadOnly(out); Statement st = db.createStatement()) {
            for (AgentInfo a : agents) {
                String id = a.agentId().toString();
                // the archive reads back complete, the record count as the agent said
                long read = 0;
                try (SondeReader r = SondeReader.open(out.resolve(id))) {
                    while (r.next()) {
                        if (r.type() <= io.sonde.format.Format.EVENT) {
                            read++;
                        }
                    }
                    assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
                }
                assertThat(read).isEqualTo(produced.get(a.agentId()));

                try (ResultSet r = st.executeQuery("SELECT host, pid, status FROM agents WHERE agent_id = '" + id + "'")) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getString(1)).isEqualTo(a.host());
                    assertThat(r.getLong(2)).isEqualTo(a.pid());
                    assertThat(r.getString(3)).isEqualTo("disconnected");
                }
                ReceiverStatus.AgentStatus as = rs.agents().get(a.agentId());
                try (ResultSet r = st.executeQuery("SELECT COUNT(*), SUM(frames), SUM(bytes), SUM(data_records), MIN(segment), MIN(status)"
                        + " FROM segments WHERE agent_id = '" + id + "'")) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getLong(1)).isEqualTo(as.connections());
                    assertThat(r.getLong(2)).isEqualTo(as.frames());
                    assertThat(r.getLong(3)).isEqualTo(as.bytes());
                    assertThat(r.getLong(4)).isEqualTo(produced.get(a.agentId()));
                    assertThat(out.resolve(r.getString(5))).isRegularFile();
                    assertThat(r.getString(6)).isEqualTo("closed");
                }
                assertThat(minutesInDatabase(st, id)).as("operation minutes of agent " + id).isEqualTo(minutesFromSegmentFiles(out.resolve(id)));
            }
        }
    }

    /** Per operation and minute, what the database holds: calls, errors, sum, p50, p90, p99, max. */
    static Map<String, List<Long>> minutesInDatabase(Statement st, String agent) throws Exception {
        Map<String, List<Long>> m = new TreeMap<>();
        try (ResultSet r = st.executeQuery("SELECT operation, minute_ms, calls, errors, sum_ns, p50_ns, p90_ns, p99_ns, max_ns"
                + " FROM operation_minutes WHERE agent_id = '" + agent + "'")) {
            while (r.next()) {
                List<Long> v = new ArrayList<>();
                for (int i = 3; i <= 9; i++) {
                    v.add(r.getLong(i));
                }
                assertThat(m.put(r.getString(1) + " @" + r.getLong(2), v)).as("one row per operation and minute").isNull();
            }
        }
        assertThat(m).isNotEmpty();
        return m;
    }

    /** The same, computed by sonde-analysis from the archived segment files (its own reader and pairing). */
    static Map<String, List<Long>> minutesFromSegmentFiles(Path agentFolder) throws Exception {
        Map<String, LatencyDistribution> dist = new TreeMap<>();
        Map<String, Long> errors = new TreeMap<>();
        AnalysisOptions o = new AnalysisOptions();
        o.extraListeners.add(e -> {
            String key = e.operation().name() + " @" + Math.floorDiv(e.startWallNanos(), 60_000_000_000L) * 60_000L;
            dist.computeIfAbsent(key, k -> new LatencyDistribution()).record(e.rawWallInclusive());
            errors.merge(key, e.exception() != null ? 1L : 0L, Long::sum);
        });
        var result = Analyzer.run(new LogSource(List.of(agentFolder)), o);
        assertThat(result.partial()).isFalse();
        Map<String, List<Long>> m = new TreeMap<>();
        dist.forEach((k, d) -> m.put(k, List.of(d.count(), errors.get(k), d.sum(), d.percentile(50), d.percentile(90), d.percentile(99), d.max())));
        return m;
    }

    /** Waits until the receiver has every agent's trailer. */
    static void awaitTrailers(Collector c, java.util.Set<UUID> agents) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Map<UUID, ReceiverStatus.AgentStatus> a = c.receiverStatus().agents();
            if (a.keySet().containsAll(agents) && agents.stream().allMatch(id -> a.get(id).trailer()) && c.receiverStatus().openConnections() == 0) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("trailers of " + agents + " did not arrive: " + c.receiverStatus());
    }

    @Test
    void aSlowHandlerDropsOnItsOwnQueueWhileIngestAndArchiveKeepUp() throws Exception {
        Collector c = start(HandlerSet.byName(List.of("archive", "test-slow")), Map.of("test-slow.millis", "100", "queue.frames", "4"));
        Map<UUID, Long> produced;
        HandlerStatus slowDuringRun;
        long received;
        try {
            produced = runAgents(c.port(), 1, 2, 600, 2);
            awaitTrailers(c, produced.keySet());
            received = c.receiverStatus().agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
            slowDuringRun = c.handlerStatus().get(1);
        } finally {
            c.stop();
        }
        // at 100 ms per frame the slow handler could not have taken all frames while the agents ran
        assertThat(received).isGreaterThan(500);
        assertThat(slowDuringRun.name()).isEqualTo("test-slow");
        assertThat(slowDuringRun.dropped()).as(slowDuringRun.describe()).isPositive();
        assertThat(slowDuringRun.queued()).isLessThanOrEqualTo(4);
        HandlerStatus slow = c.handlerStatus().get(1);
        assertThat(slow.handled() + slow.dropped()).as("every frame handled or counted as dropped: " + slow.describe()).isEqualTo(received);
        assertThat(slow.queued()).as("queue drained at stop").isZero();
        HandlerStatus archive = c.handlerStatus().get(0);
        assertThat(archive.lossless()).isTrue();
        assertThat(archive.dropped()).isZero();
        assertThat(archive.handled()).isEqualTo(received);
        assertThat(failures).isEmpty();
        for (UUID agent : produced.keySet()) {
            long read = 0;
            try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
                while (r.next()) {
                    read++;
                }
                assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
                assertThat(r.trailer().written()).isEqualTo(produced.get(agent));
            }
            assertThat(read).isGreaterThanOrEqualTo(produced.get(agent));
        }
    }

    @Test
    void aFailingHandlerIsReportedAndCountedAndTheOthersGoOn() throws Exception {
        Collector c = start(HandlerSet.byName(List.of("archive", "test-failing", "database")), Map.of());
        Map<UUID, Long> produced;
        try {
            produced = runAgents(c.port(), 1, 1, 200, 1);
            awaitTrailers(c, produced.keySet());
        } finally {
            c.stop();
        }
        assertThat(failures).as("no connection failed").isEmpty();
        HandlerStatus failing = c.handlerStatus().get(1);
        assertThat(failing.name()).isEqualTo("test-failing");
        long frames = c.receiverStatus().agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
        assertThat(failing.errors()).as(failing.describe()).isEqualTo(frames + 2 + 1); // every frame, both stream starts, close
        assertThat(failing.lastError()).contains("test handler fails");
        assertThat(notices).anySatisfy(n -> assertThat(n).startsWith("handler test-failing: handle failed: ").contains("test handler fails on frame"));
        assertThat(notices).anySatisfy(n -> assertThat(n).contains("further errors only counted"));
        assertThat(notices.size()).as("reports bounded").isLessThanOrEqualTo(10);
        try (Connection db = ArchiveDatabase.openReadOnly(out); Statement st = db.createStatement();
                ResultSet r = st.executeQuery("SELECT COUNT(*) FROM agents")) {
            r.next();
            assertThat(r.getLong(1)).as("the database handler after the failing one still ran").isEqualTo(2);
        }
        for (UUID agent : produced.keySet()) {
            assertThat(minutesInDatabaseFor(agent)).isEqualTo(minutesFromSegmentFiles(out.resolve(agent.toString())));
        }
    }

    private Map<String, List<Long>> minutesInDatabaseFor(UUID agent) throws Exception {
        try (Connection db = ArchiveDatabase.openReadOnly(out); Statement st = db.createStatement()) {
            return minutesInDatabase(st, agent.toString());
        }
    }

    @Test
    void aHandlerThatCannotOpenIsDisabledAndReportedWhileTheCollectorRuns() throws Exception {
        Collector c = start(HandlerSet.byName(List.of("archive", "test-failing")), Map.of("test-failing.open", "fail"));
        Map<UUID, Long> produced;
        try {
            produced = runAgents(c.port(), 1, 1, 100, 0);
            awaitTrailers(c, produced.keySet());
        } finally {
            c.stop();
        }
        HandlerStatus failing = c.handlerStatus().get(1);
        assertThat(failing.state()).isEqualTo("failed to open: IllegalStateException: test handler refuses to open");
        long frames = c.receiverStatus().agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
        assertThat(failing.dropped()).isEqualTo(frames);
        assertThat(notices).containsExactly("handler test-failing: failed to open, disabled: IllegalStateException: test handler refuses to open");
        assertThat(c.handlerStatus().get(0).handled()).isEqualTo(frames);
    }

    @Test
    void unknownHandlersAreNamedWithTheAvailableOnes() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HandlerSet.byName(List.of("archive", "nope")))
                .hasMessage("unknown handler 'nope'; available: archive, database, decode-count, metrics, otlp, test-failing, test-slow");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HandlerSet.byName(List.of("archive", "archive")))
                .hasMessage("handler 'archive' given twice");
    }
}
