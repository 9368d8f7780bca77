package io.sonde.bench.mooms;

import io.sonde.core.control.LoopbackConnector;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import javax.management.remote.rmi.RMIConnectorServer;

/**
 * A remote JMX connector (RMI) for the JMX version of the server, reachable only on 127.0.0.1: an
 * RMI registry on a free loopback port and the connector's remote object, both listening on the
 * loopback address. The server JVM runs with {@code java.rmi.server.hostname=127.0.0.1} so the stubs
 * the clients get point there too.
 */
final class JmxEndpoint implements AutoCloseable {
    private final Registry registry;
    private final JMXConnectorServer connector;
    private final JMXServiceURL url;

    private JmxEndpoint(Registry registry, JMXConnectorServer connector, JMXServiceURL url) {
        this.registry = registry;
        this.connector = connector;
        this.url = url;
    }

    /** Starts the registry and the connector for {@code server}; tries a few ports if one is taken meanwhile. */
    static JmxEndpoint start(MBeanServer server) throws IOException {
        RMIServerSocketFactory loopback = LoopbackConnector.LoopbackSockets.INSTANCE; // server side only, as before
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freeLoopbackPort();
            Registry registry;
            try {
                registry = LocateRegistry.createRegistry(port, null, loopback);
            } catch (IOException e) { // the port was taken between the probe and here
                last = e;
                continue;
            }
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
            Map<String, Object> env = Map.of(RMIConnectorServer.RMI_SERVER_SOCKET_FACTORY_ATTRIBUTE, loopback);
            JMXConnectorServer connector = JMXConnectorServerFactory.newJMXConnectorServer(url, env, server);
            connector.start();
            return new JmxEndpoint(registry, connector, url);
        }
        throw new IOException("no free loopback port for the RMI registry after 5 attempts", last);
    }

    /** The address clients connect to ({@code service:jmx:rmi:///jndi/rmi://127.0.0.1:PORT/jmxrmi}). */
    JMXServiceURL url() {
        return url;
    }

    @Override
    public void close() throws IOException {
        connector.stop();
        try {
            UnicastRemoteObject.unexportObject(registry, true);
        } catch (NoSuchObjectException alreadyGone) {
            // nothing left to stop
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
