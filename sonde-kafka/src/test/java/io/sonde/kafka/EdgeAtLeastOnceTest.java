package io.sonde.kafka;

import static io.sonde.kafka.KafkaTransportTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.kafka.publish.KafkaPublishHandler;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At least once from agent through an edge collector into Kafka: the edge acknowledges a frame to
 * the agent only once Kafka acknowledged it. Kafka is made unable to take frames for a while (the
 * topic does not exist yet and the broker does not create topics, so every send fails after
 * {@code kafka.max.block.ms}); the edge then fails the connection without acknowledging, the agent
 * reconnects and re-sends, and once the topic exists everything the agent wrote reaches Kafka. The
 * topic is consumed into an archive and counted per (agent, sequence number).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class EdgeAtLeastOnceTest {
    @Test
    void aBlockForeverAgentLosesNothingWhileKafkaCannotTakeFrames(@TempDir Path out) throws Exception {
        Outcome o = runThroughOutage("outage-block", out, Map.of("policy", "block-forever"),
                (edge, monitor) -> failedSends(edge) >= 3);
        assertThat(o.run.dropped()).as("block-forever drops nothing").isZero();
        KafkaTransportTest.assertEveryWrittenRecordOnce(o.archive, List.of(o.run));
    }

    @Test
    void aDropAgentCountsItsDropsAndEverythingItWroteReachesKafka(@TempDir Path out) throws Exception {
        Outcome o = runThroughOutage("outage-drop", out, Map.of("policy", "drop", "tcp.resend.mib", "1"),
                (edge, monitor) -> failedSends(edge) >= 1 && monitor.counters().dropped() > 0);
        assertThat(o.run.dropped()).as("the agent counted its drops").isPositive();
        KafkaTransportTest.assertEveryWrittenRecordOnce(o.archive, List.of(o.run));
    }

    /** Sends Kafka did not take during the outage, whatever the edge made of them (refused and lost, or failed and left to the agent). */
    private static long failedSends(KafkaPublishHandler edge) {
        return edge.counters().failed() + edge.counters().refused();
    }

    /** When to end the outage: given the edge's handler and the running agent. */
    private interface OutageOver {
        boolean test(KafkaPublishHandler edge, Monitor agent);
    }

    private record Outcome(Agents.Run run, Path archive) {}

    /**
     * An agent sends through an edge collector whose topic is missing until {@code over} holds; then
     * the topic is created, the agent makes 3000 more calls and closes. Checks the edge's side (no
     * drops, no refusals, Kafka acknowledged every frame it received) and archives the topic.
     */
    private static Outcome runThroughOutage(String topic, Path out, Map<String, String> agentSettings, OutageOver over) throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        KafkaPublishHandler publish = new KafkaPublishHandler();
        Map<String, String> options = Map.of("kafka.bootstrap", broker.bootstrap(), "kafka.topic", topic, "kafka.max.block.ms", "300");
        Collector edge = Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), out.resolve("edge"), List.of(publish), options),
                ReceiverListener.none(), s -> {});
        AtomicReference<Monitor> running = new AtomicReference<>();
        CompletableFuture<Void> topicCreated = CompletableFuture.runAsync(() -> {
            try {
                awaitTrue(() -> running.get() != null && over.test(publish, running.get()), 90_000,
                        () -> "the outage took effect: " + publish.counters().summary() + "; agent " + running.get().counters());
                broker.createTopic(topic, 2, Map.of());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Agents.Run run;
        try {
            Map<String, String> settings = new HashMap<>(Agents.tcp(edge.port()));
            settings.put("shutdown.timeout.ms", "60000"); // close waits for the acknowledgement of the last frame
            settings.putAll(agentSettings);
            run = callUntil(settings, running, topicCreated);
            awaitTrue(() -> publish.counters().published() + publish.counters().refused() >= KafkaTransportTest.framesReceived(edge), 60_000,
                    () -> "Kafka answered for every frame the edge received: " + publish.counters().summary());
        } finally {
            edge.stop();
            topicCreated.cancel(true);
        }
        topicCreated.get(1, TimeUnit.SECONDS); // rethrows a failed outage check
        PublishCounters c = publish.counters();
        assertThat(c.refused()).as(c.summary()).isZero();
        assertThat(edge.handlerStatus()).allSatisfy(h -> assertThat(h.dropped()).as("dropped at the edge by %s", h.name()).isZero());
        assertThat(edge.handlerStatus().stream().mapToLong(HandlerStatus::dropped).sum()).isZero();
        return new Outcome(run, KafkaTransportTest.archiveTopic(topic, out.resolve("archive")));
    }

    /**
     * Runs an agent making calls until {@code done} completed and 3000 calls after that, then closes
     * it (its trailer acknowledged). Calls may block (block-forever) while the edge holds frames back.
     */
    private static Agents.Run callUntil(Map<String, String> settings, AtomicReference<Monitor> running, CompletableFuture<Void> done)
            throws InterruptedException {
        Map<String, String> s = new HashMap<>();
        s.put("frame.bytes", "4096");
        s.put("flush.interval.ms", "5");
        s.putAll(settings);
        Monitor m = MonitorAccess.start(SondeConfig.of(s));
        running.set(m);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try {
            MethodProbe a = m.methodProbe("shop.Cart.add", "()V");
            MethodProbe b = m.methodProbe("shop.Db.query", "()V");
            int after = 0;
            for (int i = 0; after < 3000; i++) {
                MethodProbe p = i % 3 == 0 ? b : a;
                p.exit(p.enter());
                if (done.isDone()) {
                    after++;
                } else if (System.nanoTime() > deadline) {
                    throw new AssertionError("the outage did not end within 120 s; agent " + m.counters());
                } else if (i % 64 == 0) {
                    Thread.sleep(1); // paced: enough to fill the agent's buffers, not so much that the archive grows large
                }
            }
        } finally {
            m.close();
        }
        return new Agents.Run(m.agentId(), m.counters().produced(), m.counters().written(), m.counters().dropped());
    }
}
