package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka options of {@code sonde collector} that fail before any broker is reached (the Kafka
 * paths themselves are tested against a real broker in sonde-kafka's KafkaTransportTest).
 */
class KafkaCollectorOptionsTest {
    @TempDir
    Path tmp;

    private static String usageError(String... args) {
        Object[] r = CliRun.run(args);
        assertThat(r[0]).as("exit code; stderr: %s", r[2]).isEqualTo(2);
        return (String) r[2];
    }

    @Test
    void consumingListensOnNoPort() {
        assertThat(usageError("collector", "--kafka-consume", "127.0.0.1:9", "--port", "0", "--out", tmp.toString()))
                .startsWith("sonde collector: --kafka-consume listens on no port");
    }

    @Test
    void consumingRefusesToPublishBack() {
        assertThat(usageError("collector", "--kafka-consume", "127.0.0.1:9", "--handlers", "archive,kafka", "--out", tmp.toString()))
                .contains("the kafka handler would publish the consumed frames back");
    }

    @Test
    void withoutKafkaThePortIsStillRequired() {
        assertThat(usageError("collector", "--out", tmp.toString())).startsWith("sonde collector: Missing required option: '--port=N'");
    }

    @Test
    void theKafkaHandlerIsFoundByName() {
        assertThat(usageError("collector", "--port", "0", "--handlers", "nope", "--out", tmp.toString())).contains("available:").contains("kafka");
    }
}
