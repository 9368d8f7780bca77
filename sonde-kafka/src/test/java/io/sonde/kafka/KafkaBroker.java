package io.sonde.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node KRaft Kafka broker (broker and controller in one) in this JVM, for tests:
 * bound to 127.0.0.1 on two free ports, its log in a temporary folder deleted at {@link #close()}.
 * Starting takes about 10 s, so tests share one ({@link #shared()}). Kafka's internal Scala classes are used
 * (not a public API): the Kafka version is pinned in the root pom.
 */
public final class KafkaBroker implements AutoCloseable {
    private final Path dir;
    private final KafkaRaftServer server;
    private final String bootstrap;

    private KafkaBroker(Path dir, KafkaRaftServer server, String bootstrap) {
        this.dir = dir;
        this.server = server;
        this.bootstrap = bootstrap;
    }

    private static KafkaBroker shared;

    /**
     * One broker for every test class of this JVM (starting one takes seconds), started at the first
     * call and stopped when the JVM exits. Tests keep apart by using topics and groups of their own.
     */
    public static synchronized KafkaBroker shared() throws IOException {
        if (shared == null) {
            KafkaBroker b = start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    b.close();
                } catch (IOException | RuntimeException ignored) {
                    // the JVM exits anyway; the temporary folder may stay
                }
            }, "sonde-test-broker-stop"));
            shared = b;
        }
        return shared;
    }

    /** Formats a fresh log folder and starts the broker; returns once it serves. */
    public static KafkaBroker start() throws IOException {
        Path dir = Files.createTempDirectory("sonde-kafka-broker");
        int port = LoopbackBrokerConfig.freePort();
        Properties p = LoopbackBrokerConfig.of(port, LoopbackBrokerConfig.freePort(), dir.resolve("data"));
        p.put("offsets.topic.num.partitions", "4"); // the default 50 partitions take seconds to create
        p.put("group.min.session.timeout.ms", "1000"); // lets tests use short sessions: a killed consumer's partitions move sooner
        p.put("num.partitions", "4");
        p.put("auto.create.topics.enable", "false"); // tests create their topics; a missing one is an outage (EdgeAtLeastOnceTest)
        Path cfg = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(cfg)) {
            p.store(w, "sonde test broker");
        }
        int rc = kafka.tools.StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", cfg.toString(), "--standalone"},
                new PrintStream(OutputStream.nullOutputStream()));
        if (rc != 0) {
            throw new IOException("formatting the Kafka log folder " + dir + " failed with " + rc);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(p, false), Time.SYSTEM);
        server.startup();
        KafkaBroker b = new KafkaBroker(dir, server, "127.0.0.1:" + port);
        b.awaitReady();
        return b;
    }

    private void awaitReady() throws IOException {
        try (Admin a = admin()) {
            a.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("the Kafka broker did not come up within 60 s: " + e, e);
        }
    }

    public String bootstrap() {
        return bootstrap;
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Creates a topic and waits for it. */
    public void createTopic(String name, int partitions, Map<String, String> config) throws Exception {
        try (Admin a = admin()) {
            a.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(config))).all().get(60, TimeUnit.SECONDS);
            // created is not yet served: wait until every partition has its leader, so a test's first producer does not
            // spend its close timeout on metadata retries (seen on a loaded machine: 63 frames aborted)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                Object seen;
                try {
                    var d = a.describeTopics(List.of(name)).allTopicNames().get(60, TimeUnit.SECONDS).get(name);
                    if (d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                        break;
                    }
                    seen = d;
                } catch (ExecutionException e) {
                    // the broker's metadata cache may not know the topic for a moment after it was created (seen in CI),
                    // or answer another passing error (leader not available yet)
                    if (!(e.getCause() instanceof RetriableException)) throw e;
                    seen = e.getCause();
                }
                if (System.nanoTime() > deadline) throw new IllegalStateException("topic " + name + " has no leader for every partition after 60 s: " + seen);
                Thread.sleep(20);
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
