package io.sonde.bench.kafka;

import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.kafka.LoopbackBrokerConfig;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A single-node KRaft Kafka broker in a JVM of its own (what {@code kafka-server-start.sh} does),
 * from the Maven Central jars of {@code org.apache.kafka:kafka_2.13} resolved into the benchmark
 * cache: bound to 127.0.0.1 on free ports, its log in {@code dir}, stopped with SIGTERM.
 */
final class BrokerProcess implements AutoCloseable {
    static final String KAFKA = "4.4.0";

    private final Process process;
    private final String bootstrap;

    private BrokerProcess(Process process, String bootstrap) {
        this.process = process;
        this.bootstrap = bootstrap;
    }

    static BrokerProcess start(ArtifactCache cache, Path dir) throws IOException, InterruptedException {
        String cp = cache.classPath("org.apache.kafka", "kafka_2.13", KAFKA).stream().map(Path::toString)
                .collect(Collectors.joining(java.io.File.pathSeparator));
        int port = LoopbackBrokerConfig.freePort();
        Properties p = LoopbackBrokerConfig.of(port, LoopbackBrokerConfig.freePort(), dir.resolve("data"));
        Files.createDirectories(dir);
        Path cfg = dir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(cfg)) {
            p.store(w, "sonde bench kafka");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve("broker.log");
        int rc = new ProcessBuilder(java, "-cp", cp, "kafka.tools.StorageTool", "format", "-t", org.apache.kafka.common.Uuid.randomUuid().toString(), "-c", cfg.toString(), "--standalone").redirectErrorStream(true).redirectOutput(log.toFile()).start().waitFor();
        if (rc != 0) {
            throw new IOException("formatting the broker's log folder failed (" + rc + "), see " + log);
        }
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", cp, "kafka.Kafka", cfg.toString()));
        Process broker = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        BrokerProcess b = new BrokerProcess(broker, "127.0.0.1:" + port);
        try (Admin a = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, b.bootstrap))) {
            a.describeCluster().nodes().get(90, TimeUnit.SECONDS);
        } catch (Exception e) {
            b.close();
            throw new IOException("the Kafka broker did not come up within 90 s (log " + log + "): " + e, e);
        }
        return b;
    }

    String bootstrap() {
        return bootstrap;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: a clean shutdown in about 2 s
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
