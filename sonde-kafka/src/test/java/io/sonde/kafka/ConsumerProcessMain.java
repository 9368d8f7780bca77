package io.sonde.kafka;

import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.kafka.consume.KafkaConsumingCollector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A consuming collector in a JVM of its own, for the kill test: BOOTSTRAP TOPIC GROUP DIR
 * PACE-MILLIS. Prints its status once every 100 ms ({@code status frames=N partitions=K}) until
 * killed or stdin closes (then it stops in order).
 */
public final class ConsumerProcessMain {
    private ConsumerProcessMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Map.of("kafka.consumer.max.poll.records", "20", "kafka.consumer.session.timeout.ms", "3000",
                "kafka.consumer.heartbeat.interval.ms", "500", "kafka.consumer.group.protocol", "classic");
        KafkaConsumingCollector c = KafkaConsumingCollector.start(new KafkaConsumingCollector.Settings(args[0], args[1], args[2], Path.of(args[3]),
                List.of(new ArchiveHandler(), new KafkaTransportTest.Pace(Integer.parseInt(args[4]))), options), System.err::println);
        Thread status = new Thread(() -> {
            while (true) {
                KafkaConsumingCollector.Status s = c.status();
                System.out.println("status frames=" + s.frames() + " partitions=" + s.partitions().size());
                System.out.flush();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        status.setDaemon(true);
        status.start();
        while (System.in.read() >= 0) {
            // until the test closes stdin
        }
        c.stop();
    }
}
