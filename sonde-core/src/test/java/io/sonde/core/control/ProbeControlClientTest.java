package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client against the loopback connector and an MBean in this JVM: typed calls, the connector's
 * password and loopback binding, and the one-line failures. (Connecting by pid is covered by the
 * agent's SwitchingIT and the CLI's AgentCommandsTest, with real JVMs.)
 */
class ProbeControlClientTest {

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @AfterEach
    void unregister() throws Exception {
        ObjectName name = new ObjectName(ProbeControlMBean.OBJECT_NAME);
        if (server.isRegistered(name)) {
            server.unregisterMBean(name);
        }
    }

    private void register(ProbeControlMBean mbean) throws Exception {
        server.registerMBean(new StandardMBean(mbean, ProbeControlMBean.class), new ObjectName(ProbeControlMBean.OBJECT_NAME));
    }

    private static ProbeControlClient connect() throws Exception {
        String url = LoopbackConnector.startOnce();
        assertThat(url).startsWith("service:jmx:rmi://127.0.0.1/stub/");
        assertThat(System.getProperty(LoopbackConnector.URL_PROPERTY)).isEqualTo(url);
        assertThat(LoopbackConnector.startOnce()).as("started once").isEqualTo(url);
        return ProbeControlClient.connect(url, LoopbackConnector.credentials(System.getProperty(LoopbackConnector.TOKEN_PROPERTY)));
    }

    @Test
    void typedCallsReachTheMBean() throws Exception {
        Fake fake = new Fake();
        register(fake);
        try (ProbeControlClient client = connect()) {
            assertThat(client.probes().disable("com.acme.*")).isEqualTo(7);
            assertThat(fake.lastPattern).isEqualTo("com.acme.*");
            assertThat(client.probes().listMatching("x*")).containsExactly("on  1 x.y ()V");
            assertThat(client.probes().getProbeCount()).isEqualTo(3);
            assertThat(client.probes().getStatus()).isEqualTo("monitoring");
        }
    }

    @Test
    void failuresAreOneLineExceptionsWithAReason() throws Exception {
        register(new Fake());
        try (ProbeControlClient client = connect()) {
            assertThatThrownBy(() -> client.probes().enable("boom"))
                    .isInstanceOf(ProbeControlException.class)
                    .hasMessageContaining("failed on enable").hasMessageContaining("bad pattern boom")
                    .extracting(e -> ((ProbeControlException) e).reason()).isEqualTo(ProbeControlException.Reason.CALL);
            unregister();
            assertThatThrownBy(() -> client.probes().getStatus())
                    .isInstanceOf(ProbeControlException.class).hasMessageContaining("runs no Sonde agent")
                    .extracting(e -> ((ProbeControlException) e).reason()).isEqualTo(ProbeControlException.Reason.NO_AGENT);
        }
        assertThatThrownBy(ProbeControlClientTest::connect)
                .extracting(e -> ((ProbeControlException) e).reason()).isEqualTo(ProbeControlException.Reason.NO_AGENT);
    }

    @Test
    void theConnectorWantsItsToken() throws Exception {
        register(new Fake());
        String url = LoopbackConnector.startOnce();
        assertThatThrownBy(() -> ProbeControlClient.connect(url, LoopbackConnector.credentials("guess")))
                .isInstanceOf(ProbeControlException.class)
                .hasMessageContaining("cannot connect to the JMX connector of " + url)
                .extracting(e -> ((ProbeControlException) e).reason()).isEqualTo(ProbeControlException.Reason.CONNECTION);
        assertThatThrownBy(() -> ProbeControlClient.connect(url, Map.of()))
                .isInstanceOf(ProbeControlException.class);
    }

    @Test
    void theConnectorListensOnLoopbackOnly() throws Exception {
        try (ServerSocket s = LoopbackConnector.LoopbackSockets.INSTANCE.createServerSocket(0)) {
            assertThat(s.getInetAddress().isLoopbackAddress()).isTrue();
            assertThat(s.getInetAddress().isAnyLocalAddress()).isFalse();
        }
    }

    @Test
    void attachingToItselfOrToNoProcessIsRefused() {
        assertThatThrownBy(() -> ProbeControlClient.attach(ProcessHandle.current().pid()))
                .hasMessageContaining("is this JVM itself")
                .extracting(e -> ((ProbeControlException) e).reason()).isEqualTo(ProbeControlException.Reason.NO_PROCESS);
        long gone = ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        assertThatThrownBy(() -> LocalJvm.attach(gone)).hasMessage("no process with pid " + gone);
    }

    /** An MBean that answers fixed values and fails on the pattern "boom". */
    static final class Fake implements ProbeControlMBean {
        volatile String lastPattern;

        @Override public String[] list() { return listMatching("*"); }
        @Override public String[] listMatching(String pattern) { return new String[] {"on  1 x.y ()V"}; }
        @Override public int enable(String pattern) {
            if (pattern.equals("boom")) {
                throw new IllegalArgumentException("bad pattern boom");
            }
            return 1;
        }
        @Override public int disable(String pattern) { lastPattern = pattern; return 7; }
        @Override public int getProbeCount() { return 3; }
        @Override public int getEnabledProbeCount() { return 2; }
        @Override public int getInstrumentedClassCount() { return 1; }
        @Override public String[] getCounters() { return new String[] {"records.produced=0"}; }
        @Override public String[] getConfigErrors() { return new String[0]; }
        @Override public String getStatus() { return "monitoring"; }
    }
}
