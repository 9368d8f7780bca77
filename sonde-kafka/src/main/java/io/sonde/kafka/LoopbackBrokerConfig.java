package io.sonde.kafka;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The {@code server.properties} of a single-node KRaft Kafka broker (broker and controller in one
 * process) on 127.0.0.1, as the tests and {@code ./sonde bench kafka} run it: every internal topic
 * with one replica, no initial rebalance delay. Not a production configuration.
 */
public final class LoopbackBrokerConfig {
    private LoopbackBrokerConfig() {}

    /**
     * @param port the clients' port
     * @param controllerPort the controller's port
     * @param logDir the broker's log folder
     */
    public static Properties of(int port, int controllerPort, Path logDir) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        p.put("offsets.topic.replication.factor", "1"); // without it consumer groups never form on one broker
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        return p;
    }

    /** A port free on 127.0.0.1 now. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
