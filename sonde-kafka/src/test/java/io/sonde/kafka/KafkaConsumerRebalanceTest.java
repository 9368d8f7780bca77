package io.sonde.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.kafka.consume.GroupLag;
import io.sonde.kafka.consume.KafkaConsumingCollector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consuming collector whose commit the group refuses because it rebalanced meanwhile goes on
 * consuming: the frames are consumed again and dropped as held. Before, it stopped with
 * CommitFailedException (KafkaTransportTest's fail-over on a loaded machine: the survivor stopped,
 * and the group stayed 27 records behind).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaConsumerRebalanceTest {
    @Test
    void aCommitRefusedAfterARebalanceDoesNotStopTheCollector(@TempDir Path out) throws Exception {
        String topic = "commit-refused";
        KafkaBroker.shared().createTopic(topic, 1, Map.of());
        Agents.Run run = Agents.run(Agents.kafka(KafkaBroker.shared().bootstrap(), topic), 2_000);
        Path archive = out.resolve("archive");
        // the first batch takes 6 s, max.poll.interval.ms is 1 s: the member is dropped from the group, and its commit refused
        Map<String, String> options = Map.of("kafka.consumer.max.poll.interval.ms", "1000", "kafka.consumer.max.poll.records", "20",
                "kafka.consumer.session.timeout.ms", "3000", "kafka.consumer.heartbeat.interval.ms", "300", "kafka.consumer.group.protocol", "classic");
        List<String> notices = new CopyOnWriteArrayList<>();
        KafkaConsumingCollector c = KafkaConsumingCollector.start(new KafkaConsumingCollector.Settings(KafkaBroker.shared().bootstrap(), topic,
                "refused", archive, List.of(new ArchiveHandler(), KafkaTransportTest.Pace.once(6_000)), options), notices::add);
        try (Admin admin = KafkaBroker.shared().admin()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (GroupLag.of(admin, topic, "refused") > 0) {
                assertThat(c.failure()).as("the collector goes on: %s", notices).isNull();
                assertThat(System.nanoTime() - deadline).as("the group caught up within 120 s: %s, %s", c.status(), notices).isNegative();
                Thread.sleep(50);
            }
        } finally {
            assertThat(c.stop()).isTrue();
        }
        assertThat(c.failure()).isNull();
        System.err.println("commit-refused: " + c.status() + ", commits refused " + c.commitsRefused() + ", notices " + notices);
        KafkaTransportTest.assertEveryWrittenRecordOnce(archive, List.of(run));
    }
}
