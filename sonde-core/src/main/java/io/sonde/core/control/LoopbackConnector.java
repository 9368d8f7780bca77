package io.sonde.core.control;

import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;
import javax.security.auth.Subject;

/**
 * The agent's own JMX connector: RMI, listening on the loopback interface only, with a random
 * token as password. Started on demand inside the monitored JVM (never at agent start), its
 * address and token are published as system properties, which a client on the same machine reads
 * through the attach API, so only users allowed to attach (the same user) learn them.
 *
 * <p>Why not the JVM's own local connector ({@code VirtualMachine.startLocalManagementAgent()}):
 * that one listens on every interface (it rejects remote peers after accepting them, and has no
 * password), and nothing in its API binds it to loopback.
 *
 * <p>The protocol between agent and client, all in this class: the agent sets
 * {@link #AGENT_PROPERTY} (its jar) when its MBean is registered; a client that finds no
 * {@link #URL_PROPERTY} loads the same jar again with the options {@link #START_REQUEST}, which
 * makes the running agent call {@link #startOnce()}; the client then reads {@link #URL_PROPERTY}
 * and {@link #TOKEN_PROPERTY} and connects with {@link #credentials(String)}.
 */
public final class LoopbackConnector {

    /** System property: path of the agent jar; present while the agent's MBean is registered. */
    public static final String AGENT_PROPERTY = "sonde.control.agent";
    /** System property: the JMX service URL of the started connector. */
    public static final String URL_PROPERTY = "sonde.control.url";
    /** System property: the password of the started connector. */
    public static final String TOKEN_PROPERTY = "sonde.control.token";
    /** Agent options that ask a running agent to start this connector instead of starting again. */
    public static final String START_REQUEST = "sonde.control=start-connector";

    private static final String USER = "sonde";
    private static JMXConnectorServer server; // guarded by LoopbackConnector.class

    private LoopbackConnector() {}

    /**
     * Starts the connector over the platform MBean server unless it runs already, and publishes
     * its address and token; returns the address.
     *
     * @throws IOException if the connector cannot be started
     */
    public static synchronized String startOnce() throws IOException {
        if (server != null) {
            return server.getAddress().toString();
        }
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        Map<String, Object> env = new HashMap<>();
        env.put(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, LoopbackSockets.INSTANCE);
        env.put(RMIConnectorServer.RMI_CLIENT_SOCKET_FACTORY_ATTRIBUTE, LoopbackSockets.INSTANCE);
        env.put(JMXConnectorServer.AUTHENTICATOR, authenticator(token));
        // exported objects must not keep the application's JVM alive after its last thread ends
        env.put("jmx.remote.x.daemon", "true");
        JMXConnectorServer s = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("rmi", InetAddress.getLoopbackAddress().getHostAddress(), 0), env,
                ManagementFactory.getPlatformMBeanServer());
        s.start();
        server = s;
        String url = s.getAddress().toString();
        System.setProperty(TOKEN_PROPERTY, token);
        System.setProperty(URL_PROPERTY, url);
        return url;
    }

    /** The environment for {@code JMXConnectorFactory.connect} with the published token. */
    public static Map<String, Object> credentials(String token) {
        return Map.of(JMXConnector.CREDENTIALS, new String[] {USER, token});
    }

    /** The published address and token in a target's system properties, or null when not started. */
    static String[] published(Properties target) {
        String url = target.getProperty(URL_PROPERTY);
        String token = target.getProperty(TOKEN_PROPERTY);
        return url == null || token == null ? null : new String[] {url, token};
    }

    private static JMXAuthenticator authenticator(String token) {
        byte[] expected = token.getBytes(StandardCharsets.UTF_8);
        return credentials -> {
            if (credentials instanceof String[] c && c.length == 2 && USER.equals(c[0]) && c[1] != null
                    && MessageDigest.isEqual(expected, c[1].getBytes(StandardCharsets.UTF_8))) {
                return new Subject();
            }
            throw new SecurityException("wrong credentials for the Sonde control connector");
        };
    }

    /**
     * Sockets on the loopback interface at both ends: the server binds its listening socket to
     * loopback, and the client (this object travels inside the connector's stub) connects to
     * loopback whatever host name the stub carries. Public for other loopback-only RMI endpoints
     * (the MOOMS benchmark's JMX connector).
     */
    public static final class LoopbackSockets implements RMIServerSocketFactory, RMIClientSocketFactory, Serializable {
        private static final long serialVersionUID = 1L;
        /** The one instance (all are equal, so RMI may share a port between endpoints using it). */
        public static final LoopbackSockets INSTANCE = new LoopbackSockets();

        private LoopbackSockets() {}

        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return new Socket(InetAddress.getLoopbackAddress(), port);
        }

        // RMI shares connections between endpoints whose factories are equal
        @Override
        public boolean equals(Object o) {
            return o instanceof LoopbackSockets;
        }

        @Override
        public int hashCode() {
            return LoopbackSockets.class.hashCode();
        }
    }
}
