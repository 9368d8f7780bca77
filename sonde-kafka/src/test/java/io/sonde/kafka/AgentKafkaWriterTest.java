package io.sonde.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import io.sonde.kafka.app.ShopMain;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code writer=kafka} through the java agent: a real JVM started with {@code -javaagent} (the
 * shaded agent jar) and, on its class path, the application, sonde-kafka and kafka-clients with its
 * dependencies, as docs/kafka.md tells users. Its frames are consumed from the shared in-process
 * broker by a consuming collector into an archive and read back with the format's reader.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AgentKafkaWriterTest {
    /** The shaded agent jar, built by sonde-agent's package phase (system property set by the pom). */
    private static final Path AGENT_JAR = Path.of(System.getProperty("test.sonde.agent.jar", "../sonde-agent/target/sonde-agent.jar"));
    private static final int CALLS = 30_000;

    @Test
    void anAgentJvmWithWriterKafkaPublishesEveryRecord(@TempDir Path out) throws Exception {
        assertThat(AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        KafkaBroker broker = KafkaBroker.shared();
        String topic = "agent-jvm";
        broker.createTopic(topic, 2, Map.of());
        Path log = out.resolve("app.out");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-javaagent:" + AGENT_JAR.toAbsolutePath() + "=include=io.sonde.kafka.app.Shop.*,policy=block-forever,writer=kafka,kafka.bootstrap="
                        + broker.bootstrap() + ",kafka.topic=" + topic,
                "-cp", applicationClassPath(), ShopMain.class.getName(), String.valueOf(CALLS))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = p.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(exited).as("the application exited: %s", output).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("done " + CALLS).containsPattern("sonde writer=kafka \\(topic " + topic + "\\): published \\d+ frames")
                .contains("refused 0 frames").doesNotContain("not on the class path");

        Path archive = KafkaTransportTest.archiveTopic(topic, out.resolve("archive"));
        Map<UUID, Map<Long, Integer>> frames = Archives.frameCounts(archive);
        assertThat(frames).as("one agent's frames").hasSize(1);
        UUID agent = frames.keySet().iterator().next();
        Map<Long, Integer> perSequence = frames.get(agent);
        assertThat(perSequence.values()).as("each frame once").containsOnly(1);
        long highest = perSequence.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
        assertThat(perSequence).as("frames 0..%d, none missing", highest).hasSize((int) highest + 1);

        long records = 0;
        Trailer trailer;
        try (SondeReader r = SondeReader.open(archive.resolve(agent.toString()))) {
            while (r.next()) {
                if (r.type() <= Format.EVENT) {
                    records++;
                }
            }
            trailer = r.trailer();
        }
        assertThat(trailer).as("the agent's trailer arrived").isNotNull();
        assertThat(trailer.produced()).as("two records per call").isEqualTo(2L * CALLS);
        assertThat(trailer.droppedTotal()).isZero();
        assertThat(records).as("every record the agent wrote").isEqualTo(trailer.written()).isEqualTo(2L * CALLS);
    }

    /**
     * What docs/kafka.md puts on the application's class path for writer=kafka: the application
     * (here this module's test classes), sonde-kafka (its classes) and kafka-clients with its
     * dependencies; nothing else of this test JVM's class path (sonde-core comes from the agent jar).
     */
    private static String applicationClassPath() {
        List<String> keep = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String e = entry.replace(File.separatorChar, '/');
            if (e.endsWith("sonde-kafka/target/classes") || e.endsWith("sonde-kafka/target/test-classes")
                    || e.contains("/org/apache/kafka/kafka-clients/") || e.contains("/com/github/luben/zstd-jni/")
                    || e.contains("/at/yawk/lz4/") || e.contains("/org/lz4/") || e.contains("/org/xerial/snappy/")
                    || e.contains("/org/slf4j/slf4j-api/")) {
                keep.add(entry);
            }
        }
        assertThat(keep).as("class path entries of sonde-kafka and kafka-clients").anyMatch(e -> e.contains("kafka-clients"))
                .anyMatch(e -> e.replace(File.separatorChar, '/').endsWith("sonde-kafka/target/classes"));
        return String.join(File.pathSeparator, keep);
    }
}
