package io.sonde.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.DropReason;
import io.sonde.format.read.Trailer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * writer=kafka: a frame Kafka refuses or the producer aborts after {@code write} returned is
 * counted by the agent as dropped (writer-failed), not as written. Before, such frames were counted
 * by the writer's PublishCounters only, and the agent's counters and trailer said every record was
 * written (the KafkaTransportTest kill -9 failure: 63 frames aborted at close, none counted).
 * Frames aborted at close are tested in {@code KafkaWriterTest} (a single-node broker cannot be made
 * to withhold its acknowledgements: it caps {@code min.insync.replicas} at the replication factor).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaWriterDropsTest {
    @Test
    void framesTheBrokerRefusesAreDroppedInTheAgentsCountersAndTrailer(@TempDir Path out) throws Exception {
        String topic = "writer-refused";
        // 4 KiB frames do not fit: the broker refuses them (RecordTooLargeException, in the send's callback);
        // the registry frame, the trailer and small last frames fit
        KafkaBroker.shared().createTopic(topic, 1, Map.of("max.message.bytes", "1500"));
        Agents.Run run = Agents.run(Agents.kafka(KafkaBroker.shared().bootstrap(), topic), 3_000);

        assertThat(run.dropped()).as("records of refused frames counted as dropped: %s", run).isPositive();
        assertThat(run.written() + run.dropped()).isEqualTo(run.produced());
        Path archive = KafkaTransportTest.archiveTopic(topic, out.resolve("archive"));
        assertThat(Archives.records(archive, run.agent())).as("the archive holds what the agent counts as written").isEqualTo(run.written());
        Trailer trailer = Archives.trailer(archive, run.agent());
        assertThat(trailer).as("the trailer fits the topic").isNotNull();
        assertThat(trailer.written()).isEqualTo(run.written());
        assertThat(trailer.dropped(DropReason.WRITER_FAILED)).isEqualTo(run.dropped());
        assertThat(trailer.balanced()).isTrue();
    }
}
