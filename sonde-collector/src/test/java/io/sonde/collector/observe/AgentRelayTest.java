package io.sonde.collector.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.collector.Collector;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.api.live.ObserveService;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.ObserveStartup;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.observer.ObserveException;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay over real sockets on 127.0.0.1: an API monitor with {@code observe=on} writing to a
 * collector announces its observe endpoint; an observer connected to the collector's observe port
 * reaches the monitor's own live tree through it (list, pull, subscription events), and the relay's
 * errors are the clear ones: wrong token, unknown agent, no endpoint, the agent refusing the
 * collector's token, and the agent leaving (the session ends with the reason).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentRelayTest {
    private static final String COLLECTOR_TOKEN = "collector-token-relay";
    private static final String AGENT_TOKEN = "agent-observe-token-relay";

    @TempDir
    Path tmp;

    @Test
    void anObserverReachesTheAgentsTreeThroughTheCollectorUntilTheAgentLeaves() throws Exception {
        Path collectorTokenFile = tmp.resolve("collector.token");
        Path agentTokenFile = tmp.resolve("agent.token");
        ObserveStartup.writeTokenFile(collectorTokenFile, COLLECTOR_TOKEN);
        ObserveStartup.writeTokenFile(agentTokenFile, AGENT_TOKEN);
        Collector collector = startCollector(tmp, COLLECTOR_TOKEN);
        try {
            NamingEndpoint naming = collector.observe(ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN);
            Monitor m = MonitorAccess.start(SondeConfig.of(agentSettings(collector, collectorTokenFile, agentTokenFile)));
            MonitoredObject app = Sonde.live().object("relaytest/app", "App");
            LongSensor x = app.longSensor("x", "items", "a sensor read through the relay");
            x.set(7);
            try {
                UUID id = m.agentId();
                MethodProbe probe = m.methodProbe("relaytest.App.run", "()V");
                AgentInfo known = awaitAnnounced(collector, id, probe);
                assertThat(known.observe()).isEqualTo(new ObserveEndpoint("127.0.0.1", m.observePort(), false));
                try (ObserverClient direct = ObserverClient.connect("127.0.0.1", naming.port(), COLLECTOR_TOKEN, (s, e) -> {})) {
                    assertThat(direct.get("agents/" + id + "/observe")).extracting(AttributeReading::value)
                            .containsExactly("127.0.0.1:" + m.observePort());
                }

                BlockingQueue<ObservedEvent> events = new LinkedBlockingQueue<>();
                CompletableFuture<Throwable> closed = new CompletableFuture<>();
                Observer observer = new Observer() {
                    @Override
                    public void onEvents(int subscription, List<ObservedEvent> evs) {
                        events.addAll(evs);
                    }

                    @Override
                    public void onClosed(Throwable cause) {
                        closed.complete(cause);
                    }
                };
                // by a prefix of the id, as a user types it
                ObserverClient c = ObserverClient.connectRelayed("127.0.0.1", naming.port(), COLLECTOR_TOKEN, id.toString().substring(0, 8),
                        observer);
                try {
                    assertThat(c.list("relaytest/**").attributes()).extracting(a -> a.path()).containsExactly("relaytest/app/x");
                    assertThat(c.get("relaytest/app/x")).extracting(AttributeReading::value).containsExactly(7L);
                    assertThatThrownBy(() -> c.list("agents")).as("the agent's tree, not the collector's")
                            .isInstanceOfSatisfying(ObserveException.class, e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_UNKNOWN_PATH));
                    c.subscribe("relaytest/app/x", EnumSet.of(ObservedEvent.Kind.VALUE_CHANGED), DeliveryQos.immediate());
                    x.set(42);
                    x.set(43);
                    ObservedEvent first = events.poll(20, TimeUnit.SECONDS);
                    ObservedEvent second = events.poll(20, TimeUnit.SECONDS);
                    assertThat(first).isNotNull();
                    assertThat(second).isNotNull();
                    assertThat(List.of(first.value(), second.value())).containsExactly(42L, 43L);
                    assertThat(first.path()).isEqualTo("relaytest/app/x");
                    try (ObserverClient direct = ObserverClient.connect("127.0.0.1", naming.port(), COLLECTOR_TOKEN, (s, e) -> {})) {
                        assertThat(direct.get("collector/relayed")).extracting(AttributeReading::value).containsExactly(1L);
                    }

                    // the agent's method probes, listed and switched through the relay (protocol version 3 passes unchanged)
                    OneProbe probes = new OneProbe();
                    Sonde.live().registerProbeSwitch(probes);
                    try {
                        ProbeListing before = c.probes("relaytest.*", 0, 10);
                        assertThat(before.total()).isEqualTo(1);
                        assertThat(before.probes()).containsExactly(new ProbeInfo(9, "relaytest.App.run", "()V", true,
                                ProbeInfo.Origin.CONFIGURED, ""));
                        assertThat(c.disableProbes("relaytest.*")).isEqualTo(1);
                        assertThat(c.probes("relaytest.*", 0, 10).probes()).containsExactly(new ProbeInfo(9, "relaytest.App.run", "()V", false,
                                ProbeInfo.Origin.SWITCHED, "off: relaytest.*"));
                        assertThat(c.probes("other.*", 0, 10).total()).isZero();
                    } finally {
                        Sonde.live().registerProbeSwitch(null);
                    }

                    // the agent leaves: the relayed session ends, and says why
                    m.close();
                    Throwable cause = closed.get(20, TimeUnit.SECONDS);
                    assertThat(cause).isInstanceOf(ObserveException.class);
                    assertThat(((ObserveException) cause).code()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE);
                    assertThat(cause.getMessage()).contains("agent " + id).contains("closed its observe session");
                    assertThatThrownBy(() -> c.get("relaytest/app/x")).isInstanceOf(java.io.IOException.class);
                } finally {
                    c.close();
                }
            } finally {
                m.close();
                app.delete();
            }
        } finally {
            collector.stop();
        }
    }

    @Test
    void anEndpointAnnouncedWhileConnectedReachesTheCollectorWithNothingLostOrTwice() throws Exception {
        Path tokenFile = tmp.resolve("collector.token");
        ObserveStartup.writeTokenFile(tokenFile, COLLECTOR_TOKEN);
        Collector collector = startCollector(tmp, COLLECTOR_TOKEN);
        try {
            Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.port", String.valueOf(collector.port()),
                    "tcp.token.file", tokenFile.toString(), "flush.interval.ms", "5", "policy", "block-forever")));
            UUID id = m.agentId();
            MethodProbe probe = m.methodProbe("relaytest.Late.run", "()V");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (collector.agents().stream().noneMatch(a -> a.agentId().equals(id)) && System.nanoTime() < deadline) {
                boolean entered = probe.enter();
                probe.exit(entered);
                Thread.sleep(5);
            }
            assertThat(collector.agents()).as("connected without an endpoint first").singleElement()
                    .satisfies(a -> assertThat(a.observe()).isNull());
            // the endpoint starts after the connection: the writer reconnects once to announce it
            MonitorAccess.pipeline(m).announceObserve(7799, "shop-1.example");
            AgentInfo announced = awaitAnnounced(collector, id, probe);
            assertThat(announced.observe()).isEqualTo(new ObserveEndpoint("shop-1.example", 7799, false));
            assertThat(announced.connections()).isEqualTo(2);
            m.close();
            assertThat(m.counters().dropped()).isZero();
            assertThat(m.counters().written()).isEqualTo(m.counters().produced());
            long deadlineStored = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!collector.receiverStatus().agents().get(id).trailer() && System.nanoTime() < deadlineStored) Thread.sleep(10);
            var status = collector.receiverStatus().agents().get(id);
            assertThat(status.trailer()).as("trailer stored: %s", status.describe()).isTrue();
            assertThat(status.firstSequence()).isZero();
            assertThat(status.missingFrames()).as("no gap across the reconnect: %s", status.describe()).isZero();
        } finally {
            collector.stop();
        }
    }

    /** Produces a record now and then until the collector knows the agent with its observe endpoint. */
    /** A collector on 127.0.0.1 (any free port) archiving into {@code tmp/archive}, agents authenticated with {@code token}. */
    static Collector startCollector(Path tmp, String token) throws java.io.IOException {
        return Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), tmp.resolve("archive"),
                HandlerSet.byName(List.of("archive")), Map.of(), ReceiverLimits.defaults(), token), ReceiverListener.none(), line -> {});
    }

    /** Settings of an API monitor writing to {@code collector} with {@code observe=on} on any free port (more may be added). */
    static Map<String, String> agentSettings(Collector collector, Path collectorTokenFile, Path agentTokenFile) {
        Map<String, String> settings = new HashMap<>();
        settings.put("writer", "tcp");
        settings.put("tcp.host", "127.0.0.1");
        settings.put("tcp.port", String.valueOf(collector.port()));
        settings.put("tcp.token.file", collectorTokenFile.toString());
        settings.put("observe", "on");
        settings.put("observe.port", "0");
        settings.put("observe.token.file", agentTokenFile.toString());
        settings.put("flush.interval.ms", "5");
        settings.put("policy", "block-forever");
        return settings;
    }

    static AgentInfo awaitAnnounced(Collector collector, UUID id, MethodProbe probe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            boolean entered = probe.enter();
            probe.exit(entered);
            for (AgentInfo a : collector.agents()) {
                if (a.agentId().equals(id) && a.observe() != null && AgentInfo.CONNECTED.equals(a.status())) return a;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the collector did not learn agent " + id + "'s observe endpoint within 30 s: " + collector.agents());
    }

    @Test
    void wrongTokenUnknownAgentNoEndpointAndARefusingAgentGetClearErrors() throws Exception {
        AgentDirectory dir = new AgentDirectory();
        UUID withEndpoint = UUID.fromString("00000000-0000-4000-8000-0000000000e1");
        UUID without = UUID.fromString("00000000-0000-4000-8000-0000000000e2");
        UUID gone = UUID.fromString("00000000-0000-4000-8000-0000000000e3");
        LiveRuntime agentTree = LiveRuntime.bare(LiveClock.system());
        try (ObserveService agentSide = agentTree.observe(ObserveOptions.of(0, AGENT_TOKEN))) {
            // a live observe endpoint whose token is AGENT_TOKEN, standing in for an agent's
            dir.connected(stream(1, withEndpoint), new ObserveEndpoint("127.0.0.1", agentSide.port(), false));
            dir.connected(stream(2, without), null);
            StreamInfo g = stream(3, gone);
            dir.connected(g, new ObserveEndpoint("127.0.0.1", agentSide.port(), false));
            dir.disconnected(g, System.currentTimeMillis());
            try (NamingEndpoint wrongAgentToken = NamingEndpoint.start(dir, ObserveOptions.of(0, COLLECTOR_TOKEN), "not-the-agents-token");
                    NamingEndpoint noAgentToken = NamingEndpoint.start(dir, ObserveOptions.of(0, COLLECTOR_TOKEN));
                    NamingEndpoint right = NamingEndpoint.start(dir, ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN)) {
                refused(right, "wrong-collector-token", withEndpoint.toString(), ObserveProtocol.ERR_BAD_TOKEN, "wrong token");
                refused(right, COLLECTOR_TOKEN, "ffffffff", ObserveProtocol.ERR_UNKNOWN_PATH, "no agent 'ffffffff' at this collector");
                refused(right, COLLECTOR_TOKEN, "00000000", ObserveProtocol.ERR_BAD_ARGUMENT, "ambiguous");
                refused(right, COLLECTOR_TOKEN, without.toString(), ObserveProtocol.ERR_UNAVAILABLE, "announced no observe endpoint");
                refused(right, COLLECTOR_TOKEN, gone.toString(), ObserveProtocol.ERR_UNAVAILABLE, "is disconnected");
                refused(wrongAgentToken, COLLECTOR_TOKEN, withEndpoint.toString(), ObserveProtocol.ERR_UNAVAILABLE,
                        "refused the collector's session");
                refused(noAgentToken, COLLECTOR_TOKEN, withEndpoint.toString(), ObserveProtocol.ERR_UNAVAILABLE, "--agent-token-file");
                // and with everything right the session opens at the stand-in agent (its own tree: its agents/ is empty)
                try (ObserverClient c = ObserverClient.connectRelayed("127.0.0.1", right.port(), COLLECTOR_TOKEN, withEndpoint.toString(),
                        (s, e) -> {})) {
                    assertThat(c.connectionId()).isPositive();
                    assertThat(c.list("agents/*").objects()).isEmpty();
                }
                // an endpoint that does not relay refuses RELAY as any first message that is not HELLO
                refused(agentSide.port(), AGENT_TOKEN, withEndpoint.toString(), ObserveProtocol.ERR_BAD_TOKEN, "must be HELLO");
                // the relaying endpoint still serves its own tree to a plain HELLO
                try (ObserverClient c = ObserverClient.connect("127.0.0.1", right.port(), COLLECTOR_TOKEN, (s, e) -> {})) {
                    assertThat(c.list("agents/*").objects()).hasSize(3);
                }
            }
        } finally {
            agentTree.close();
        }
    }

    /** A switch over one probe, {@code relaytest.App.run}, as the agent's lists and switches it. */
    private static final class OneProbe implements ProbeSwitch {
        private volatile ProbeSwitch.Probe probe = new ProbeSwitch.Probe(9, "relaytest.App.run", "()V", true, Origin.CONFIGURED, "");

        @Override
        public int enable(String pattern) {
            return set(pattern, true);
        }

        @Override
        public int disable(String pattern) {
            return set(pattern, false);
        }

        private int set(String pattern, boolean on) {
            if (!matches(pattern) || probe.on() == on) return 0;
            probe = new ProbeSwitch.Probe(9, probe.name(), "()V", on, Origin.SWITCHED, (on ? "on: " : "off: ") + pattern);
            return 1;
        }

        private boolean matches(String pattern) {
            return probe.name().startsWith(pattern.replace("*", ""));
        }

        @Override
        public Page list(String pattern, int offset, int limit) {
            boolean in = matches(pattern);
            return new Page(in ? 1 : 0, offset, in && offset == 0 && limit > 0 ? List.of(probe) : List.of());
        }
    }

    private static void refused(NamingEndpoint endpoint, String token, String agent, int code, String message) {
        refused(endpoint.port(), token, agent, code, message);
    }

    private static void refused(int port, String token, String agent, int code, String message) {
        assertThatThrownBy(() -> ObserverClient.connectRelayed("127.0.0.1", port, token, agent, (s, e) -> {}).close())
                .as("RELAY to %s with token %s", agent, token).isInstanceOfSatisfying(ObserveException.class, e -> {
                    assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(message);
                });
    }

    static StreamInfo stream(long connection, UUID agent) {
        return new StreamInfo(connection, agent, "host", 100 + connection, "127.0.0.1:1", System.currentTimeMillis(), new byte[12], false);
    }
}
