package io.sonde.cli;

import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.kafka.consume.KafkaConsumingCollector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sonde collector --kafka-consume BOOTSTRAP --topic T --group G --out DIR}: the archiving
 * collector of a Kafka deployment. Consumes the topic as a member of the group and runs the
 * handlers on its frames until SIGTERM or Ctrl-C, then commits, drains and prints the totals.
 */
final class KafkaConsumeMode {
    private KafkaConsumeMode() {}

    static int run(CollectorCommand c) throws InterruptedException {
        if (c.listen.port != null || c.http != null || c.observePort != null || c.kafkaPublish != null) {
            throw new UsageError("--kafka-consume listens on no port: --port, --http, --observe-port and --kafka-publish do not apply");
        }
        if (c.kafkaConsume.isBlank() || c.group.isBlank() || c.topic.isBlank()) {
            throw new UsageError("--kafka-consume, --topic and --group must not be empty");
        }
        if (c.handlers.contains("kafka")) {
            throw new UsageError("--handlers: the kafka handler would publish the consumed frames back to Kafka");
        }
        List<DataHandler> chosen = c.chosenHandlers();
        PrintWriter stdout = c.spec.commandLine().getOut();
        KafkaConsumingCollector collector;
        try {
            collector = KafkaConsumingCollector.start(new KafkaConsumingCollector.Settings(c.kafkaConsume, c.topic, c.group, c.out, chosen,
                    c.handlerOptions()), line -> CollectorCommand.print(stdout, line));
        } catch (IllegalArgumentException | org.apache.kafka.common.KafkaException e) {
            throw new UsageError("--option: " + e.getMessage());
        } catch (IOException e) {
            throw new UserError("cannot start storing into " + c.out + ": " + e.getMessage());
        }
        CollectorCommand.print(stdout, "collector consuming " + c.topic + " from " + c.kafkaConsume + " as group " + c.group + ", archive " + c.out
                + ", handlers " + c.handlerList(collector.handlerStatus()) + " (Ctrl-C to stop)");
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            boolean drained = collector.stop();
            KafkaConsumingCollector.Status s = collector.status();
            CollectorCommand.print(stdout, "stopped: " + s.records() + " records consumed, " + s.frames() + " frames handled, " + s.duplicates()
                    + " duplicates dropped, " + s.malformed() + " malformed records skipped, " + s.commits() + " offset commits"
                    + (drained ? ", every handler queue drained" : ", NOT every handler queue drained"));
            for (HandlerStatus h : collector.handlerStatus()) {
                CollectorCommand.print(stdout, "handler " + h.describe());
            }
            stopped.countDown();
        }, "sonde-collector-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        collector.await(); // returns early only when consuming failed
        if (collector.failure() != null) {
            Runtime.getRuntime().removeShutdownHook(hook);
            collector.stop();
            throw new UserError("consuming " + c.topic + " failed: " + collector.failure().getMessage());
        }
        stopped.await();
        return 0;
    }
}
