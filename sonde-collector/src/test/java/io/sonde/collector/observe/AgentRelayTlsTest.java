package io.sonde.collector.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import io.sonde.collector.Collector;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.observe.TestKeyPairs;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.nio.file.Path;
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
        Collector collector = AgentRelayTest.startCollector(tmp, COLLECTOR_TOKEN);
        try {
            NamingEndpoint naming = collector.observe(ObserveOptions.of(0, COLLECTOR_TOKEN), AGENT_TOKEN, trustingTheAgent);
            Map<String, String> settings = AgentRelayTest.agentSettings(collector, collectorTokenFile, agentTokenFile);
            settings.put("observe.tls.key.store", agentKeyStore.toString());
            settings.put("observe.tls.password.file", agentPassword.toString());
            Monitor m = MonitorAccess.start(SondeConfig.of(settings));
            MonitoredObject app = Sonde.live().object("relaytlstest/app", "App");
            LongSensor x = app.longSensor("x", "items", "a sensor read through the relay over TLS");
            x.set(11);
            try {
                UUID id = m.agentId();
                AgentInfo known = AgentRelayTest.awaitAnnounced(collector, id, m.methodProbe("relaytlstest.App.run", "()V"));
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
            dir.connected(AgentRelayTest.stream(1, agent), new ObserveEndpoint("127.0.0.1", agentSide.port(), true));
            // an agent that announced plain TCP for what is a TLS endpoint: the session cannot open
            dir.connected(AgentRelayTest.stream(2, plainAnnounced), new ObserveEndpoint("127.0.0.1", agentSide.port(), false));
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
}
