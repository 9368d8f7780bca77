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
import io.sonde.api.live.ObserveService;
import io.sonde.collector.Collector;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.observe.TestKeyPairs;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay to an agent whose observe endpoint serves TLS ({@code observe.tls.key.store}), over real
 * sockets on 127.0.0.1 with key pairs made by keytool: the agent's HELLO announces the TLS flag, the
 * collector dials it with TLS trusting {@code --agent-trust-store}, and a collector that does not
 * trust the agent's certificate refuses the RELAY with a message saying what to give it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentRelayTlsTest {
    private static final String COLLECTOR_TOKEN = "collector-token-relay-tls";
    private static final String AGENT_TOKEN = "agent-observe-token-relay-tls";

    @TempDir
    static Path keys;
    static Path agentKeyStore;
    static Path agentPassword;
    static SSLContext trustingTheAgent;

    @BeforeAll
    static void agentKeyPair() throws Exception {
        agentKeyStore = TestKeyPairs.keyPair(keys, "agent.p12", "CN=agent", "SAN=ip:127.0.0.1");
        agentPassword = TestKeyPairs.secretFile(keys, "agent.password", TestKeyPairs.PASSWORD);
        trustingTheAgent = ObserverClient.trusting(TestKeyPairs.trustStoreOf(agentKeyStore, keys, "agent-trust.p12"),
                TestKeyPairs.PASSWORD.toCharArray());
    }

    @TempDir
    Path tmp;

    @Test
    void anAgentAnnouncesItsTlsEndpointAndTheCollectorRelaysToItWithTls() throws Exception {
        Path collectorTokenFile = TestKeyPairs.secretFile(tmp, "collector.token", COLLECTOR_TOKEN);
        Path agentTokenFile = TestKeyPairs.secretFile(tmp, "agent.token", AGENT_TOKEN);
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), tmp.resolve("archive"),
                HandlerSet.byName(List.of("archive")), Map.of(), ReceiverLimits.defaults(), COLLECTOR_TOKEN), ReceiverListener.none(),
                line -> {});
        try {
            NamingEndpoint naming = collector.observe(ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN, trustingTheAgent);
            Map<String, String> settings = new HashMap<>();
            settings.put("writer", "tcp");
            settings.put("tcp.host", "127.0.0.1");
            settings.put("tcp.port", String.valueOf(collector.port()));
            settings.put("tcp.token.file", collectorTokenFile.toString());
            settings.put("observe", "on");
            settings.put("observe.port", "0");
            settings.put("observe.token.file", agentTokenFile.toString());
            settings.put("observe.tls.key.store", agentKeyStore.toString());
            settings.put("observe.tls.password.file", agentPassword.toString());
            settings.put("flush.interval.ms", "5");
            settings.put("policy", "block-forever");
            Monitor m = MonitorAccess.start(SondeConfig.of(settings));
            MonitoredObject app = Sonde.live().object("relaytlstest/app", "App");
            LongSensor x = app.longSensor("x", "items", "a sensor read through the relay over TLS");
            x.set(11);
            try {
                UUID id = m.agentId();
                AgentInfo known = awaitAnnounced(collector, id, m.methodProbe("relaytlstest.App.run", "()V"));
                assertThat(known.observe()).isEqualTo(new ObserveEndpoint("127.0.0.1", m.observePort(), true));
                try (ObserverClient c = ObserverClient.connectRelayed("127.0.0.1", naming.port(), COLLECTOR_TOKEN, id.toString(),
                        (s, e) -> {})) {
                    assertThat(c.get("relaytlstest/app/x")).extracting(AttributeReading::value).containsExactly(11L);
                    x.set(12);
                    assertThat(c.get("relaytlstest/app/x")).extracting(AttributeReading::value).containsExactly(12L);
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
    void aCollectorThatDoesNotTrustTheAgentsCertificateRefusesTheRelayNamingItsTrustStore() throws Exception {
        AgentDirectory dir = new AgentDirectory();
        UUID agent = UUID.fromString("00000000-0000-4000-8000-0000000000f1");
        UUID plainAnnounced = UUID.fromString("00000000-0000-4000-8000-0000000000f2");
        LiveRuntime agentTree = LiveRuntime.bare(LiveClock.system());
        try (ObserveService agentSide = agentTree.observe(ObserveOptions.of(0, AGENT_TOKEN).tls(agentKeyStore, agentPassword))) {
            dir.connected(stream(1, agent), new ObserveEndpoint("127.0.0.1", agentSide.port(), true));
            // an agent that announced plain TCP for what is a TLS endpoint: the session cannot open
            dir.connected(stream(2, plainAnnounced), new ObserveEndpoint("127.0.0.1", agentSide.port(), false));
            try (NamingEndpoint defaultTrust = NamingEndpoint.start(dir, ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN);
                    NamingEndpoint trusting = NamingEndpoint.start(dir, ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN, trustingTheAgent)) {
                assertThatThrownBy(() -> ObserverClient.connectRelayed("127.0.0.1", defaultTrust.port(), COLLECTOR_TOKEN, agent.toString(),
                        (s, e) -> {}).close()).isInstanceOfSatisfying(ObserveException.class, e -> {
                            assertThat(e.code()).as(e.getMessage()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE);
                            assertThat(e.getMessage()).contains("127.0.0.1:" + agentSide.port() + " (TLS)").contains("TLS handshake")
                                    .contains("--agent-trust-store");
                        });
                assertThatThrownBy(() -> ObserverClient.connectRelayed("127.0.0.1", trusting.port(), COLLECTOR_TOKEN,
                        plainAnnounced.toString(), (s, e) -> {}).close()).isInstanceOfSatisfying(ObserveException.class, e -> {
                            assertThat(e.code()).as(e.getMessage()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE);
                            assertThat(e.getMessage()).contains("agent " + plainAnnounced);
                        });
                try (ObserverClient c = ObserverClient.connectRelayed("127.0.0.1", trusting.port(), COLLECTOR_TOKEN, agent.toString(),
                        (s, e) -> {})) {
                    assertThat(c.connectionId()).isPositive();
                    assertThat(c.list("agents/*").objects()).as("the stand-in agent's own (empty) tree").isEmpty();
                }
            }
        } finally {
            agentTree.close();
        }
    }

    private static AgentInfo awaitAnnounced(Collector collector, UUID id, MethodProbe probe) throws InterruptedException {
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

    private static StreamInfo stream(long connection, UUID agent) {
        return new StreamInfo(connection, agent, "host", 100 + connection, "127.0.0.1:1", System.currentTimeMillis(), new byte[12], false);
    }
}
