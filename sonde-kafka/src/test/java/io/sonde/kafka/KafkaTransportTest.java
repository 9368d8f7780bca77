package io.sonde.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.collector.Collector;
import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.kafka.consume.GroupLag;
import io.sonde.kafka.consume.KafkaConsumingCollector;
import io.sonde.kafka.publish.KafkaPublishHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka as the transport between edge and archiving collectors, against a real in-process KRaft
 * broker on 127.0.0.1 (shared by the test classes): real agents (sonde-core pipelines) sending to an edge
 * collector with the {@code kafka} handler or straight to Kafka with {@code writer=kafka}; consuming
 * collectors in a group archiving the topic; the archive read back with the format's reader and
 * counted per (agent, sequence number).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaTransportTest {
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.shared();
    }

    @Test
    void framesTravelEdgeCollectorToKafkaToArchiveExactlyOnce(@TempDir Path out) throws Exception {
        String topic = "round-trip";
        broker.createTopic(topic, 4, Map.of());
        KafkaPublishHandler publish = new KafkaPublishHandler();
        Collector edge = Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), out.resolve("edge"), List.of(publish),
                Map.of("kafka.bootstrap", broker.bootstrap(), "kafka.topic", topic)), ReceiverListener.none(), System.err::println);
        List<Agents.Run> runs = new ArrayList<>();
        try {
            runs.add(Agents.run(Agents.tcp(edge.port()), 3_000));
            runs.add(Agents.run(Agents.tcp(edge.port()), 2_000));
            awaitTrue(() -> handled(edge) >= framesReceived(edge), 60_000, "edge collector handed every frame to the kafka handler");
        } finally {
            edge.stop(); // the producer sends what it holds before close returns
        }
        runs.add(Agents.run(Agents.kafka(broker.bootstrap(), topic), 1_000)); // no collector tier: writer=kafka
        assertThat(publish.counters().refused()).isZero();
        assertThat(publish.counters().published()).isEqualTo(framesReceived(edge));
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(FrameRecords.producerProperties(broker.bootstrap(), 5_000, Map.of()))) {
            p.send(new ProducerRecord<>(topic, "garbage".getBytes(), "not a frame, ".repeat(10).getBytes())).get(30, TimeUnit.SECONDS);
        }

        Path archive = out.resolve("archive");
        List<String> notices = new CopyOnWriteArrayList<>();
        KafkaConsumingCollector consumer = KafkaConsumingCollector.start(settings(topic, "archivers", archive, Map.of(), 0), notices::add);
        try {
            awaitConsumed(topic, "archivers");
        } finally {
            assertThat(consumer.stop()).isTrue();
        }
        assertThat(consumer.failure()).isNull();
        assertThat(consumer.status().malformed()).isEqualTo(1);
        assertThat(notices).anySatisfy(n -> assertThat(n).contains("skipped record").contains("does not start with the frame magic"));
        assertEveryRecordOnce(archive, runs);

        // another group reads the whole topic into the same archive: every frame is held already, and no segment is
        // added (an empty one after the segment holding an agent's trailer made the archive unreadable)
        KafkaConsumingCollector again = KafkaConsumingCollector.start(settings(topic, "archivers-again", archive, Map.of(), 0), notices::add);
        try {
            awaitConsumed(topic, "archivers-again");
        } finally {
            assertThat(again.stop()).isTrue();
        }
        assertThat(again.status().frames()).isZero();
        assertThat(again.status().duplicates()).isEqualTo(consumer.status().frames());
        assertEveryRecordOnce(archive, runs);
    }

    @Test
    void aKilledConsumersPartitionsMoveToTheOtherWithNothingLostOrDuplicated(@TempDir Path out) throws Exception {
        String topic = "fail-over";
        broker.createTopic(topic, 4, Map.of());
        List<Agents.Run> runs = publishTwoAgentsPerPartition(topic, 8_000);
        Path archive = out.resolve("archive"); // one archive folder for the group (shared storage)
        Map<String, String> quick = Map.of("kafka.consumer.max.poll.records", "20", "kafka.consumer.session.timeout.ms", "3000",
                "kafka.consumer.heartbeat.interval.ms", "500", "kafka.consumer.group.protocol", "classic");
        KafkaConsumingCollector a = KafkaConsumingCollector.start(settings(topic, "pair", archive, quick, 10), System.err::println);
        KafkaConsumingCollector b = null;
        try {
            awaitTrue(() -> a.status().frames() >= 20, 60_000, "first collector archiving");
            b = KafkaConsumingCollector.start(settings(topic, "pair", archive, quick, 10), System.err::println);
            KafkaConsumingCollector second = b;
            awaitTrue(() -> !second.status().partitions().isEmpty() && second.status().frames() > 0 && a.status().partitions().size() < 4,
                    60_000, () -> "second collector shares the partitions: first " + a.status() + ", second " + second.status());
            long before = a.status().frames();
            awaitTrue(() -> a.status().frames() > before + 20, 60_000, () -> "first collector archiving after the rebalance: " + a.status());
            List<String> taken = a.status().partitions();
            assertThat(taken).isNotEmpty();
            a.kill(); // mid-run: frames archived since its last commit are consumed again by b
            awaitConsumed(topic, "pair");
            assertThat(second.status().partitions()).as("the survivor holds every partition").hasSize(4).containsAll(taken);
        } finally {
            a.kill();
            if (b != null) {
                assertThat(b.stop()).isTrue();
            }
        }
        System.err.println("fail-over: killed collector " + a.status() + ", survivor " + b.status());
        assertEveryRecordOnce(archive, runs);
    }

    @Test
    void aConsumerProcessKilledWithSigkillLosesNothingAndDuplicatesNothing(@TempDir Path out) throws Exception {
        String topic = "kill-9";
        broker.createTopic(topic, 4, Map.of());
        List<Agents.Run> runs = publishTwoAgentsPerPartition(topic, 6_000);
        Path archive = out.resolve("archive");
        // both JVMs start together: one started later may find the other done with its partitions on a loaded machine
        ConsumerProcess a = ConsumerProcess.start(broker.bootstrap(), topic, "killed", archive, out.resolve("a.err"));
        ConsumerProcess b = ConsumerProcess.start(broker.bootstrap(), topic, "killed", archive, out.resolve("b.err"));
        try {
            awaitTrue(() -> a.frames() > 0 && b.frames() > 0 && a.partitions() > 0 && a.partitions() < 4 && b.partitions() > 0, 90_000,
                    () -> "both processes archiving: A " + a.last() + ", B " + b.last());
            long before = a.frames();
            awaitTrue(() -> a.frames() > before + 5, 60_000, () -> "A archiving: " + a.last());
            a.kill(); // SIGKILL: no force, no commit, no leave-group
            awaitConsumed(topic, "killed");
            awaitTrue(() -> b.partitions() == 4, 30_000, () -> "B holds every partition: " + b.last());
        } finally {
            a.kill();
            b.stop();
        }
        assertEveryRecordOnce(archive, runs);
    }

    @Test
    void whatKafkaRefusesIsCountedAndIngestGoesOn(@TempDir Path out) throws Exception {
        String topic = "small-records";
        broker.createTopic(topic, 1, Map.of("max.message.bytes", "1500"));
        KafkaPublishHandler publish = new KafkaPublishHandler();
        List<String> notices = new CopyOnWriteArrayList<>();
        Collector edge = Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), out, List.of(new ArchiveHandler(), publish),
                Map.of("kafka.bootstrap", broker.bootstrap(), "kafka.topic", topic)), ReceiverListener.none(), notices::add);
        Agents.Run run;
        try {
            run = Agents.run(Agents.tcp(edge.port()), 5_000); // 4 KiB frames: too large for the topic
            awaitTrue(() -> handled(edge) >= framesReceived(edge), 60_000, "kafka handler saw every frame");
        } finally {
            edge.stop();
        }
        PublishCounters c = publish.counters();
        assertThat(c.refused()).as(c.summary()).isPositive();
        assertThat(c.published() + c.refused()).as("every frame published or counted refused").isEqualTo(framesReceived(edge));
        assertThat(c.reasons()).containsKey("RecordTooLargeException");
        assertThat(Archives.records(out, run.agent())).as("the archive beside it stored everything").isEqualTo(run.produced());
    }

    @Test
    void aWriterKafkaAgentStartedBeforeItsTopicExistsLosesNothing(@TempDir Path out) throws Exception {
        String topic = "late-writer";
        Map<String, String> writer = new HashMap<>(Agents.kafka(broker.bootstrap(), topic));
        writer.put("shutdown.timeout.ms", "60000"); // close waits while the writer tries again
        CompletableFuture<Agents.Run> running = CompletableFuture.supplyAsync(() -> Agents.run(writer, 3_000));
        // the writer's first sends (the registry frame) time out meanwhile (max.block.ms 1 s); how many does not matter to the checks
        Thread.sleep(2_500);
        broker.createTopic(topic, 1, Map.of());
        Agents.Run run = running.get(120, TimeUnit.SECONDS);

        assertEveryRecordOnce(archiveTopic(topic, out.resolve("archive")), List.of(run));
    }

    @Test
    void aPublishHandlerWithoutBrokersIsAClearError() {
        assertThatThrownBy(() -> new KafkaPublishHandler().open(new HandlerConfig(Path.of("."), Map.of())))
                .hasMessageContaining("kafka.bootstrap");
    }

    /** Eight writer=kafka agents, two in each of the topic's 4 partitions, so each collector's partitions hold frames to take over. */
    private static List<Agents.Run> publishTwoAgentsPerPartition(String topic, int calls) {
        List<Agents.Run> runs = new ArrayList<>();
        for (UUID agent : twoAgentsPerPartition(4)) {
            Map<String, String> writer = new HashMap<>(Agents.kafka(broker.bootstrap(), topic));
            writer.put("agent.id", agent.toString());
            runs.add(Agents.run(writer, calls));
        }
        return runs;
    }

    /** Agent ids whose records the producer's default partitioner puts two in each of the topic's partitions. */
    private static List<UUID> twoAgentsPerPartition(int partitions) {
        Map<Integer, List<UUID>> byPartition = new HashMap<>();
        java.util.Random rnd = new java.util.Random(15);
        while (byPartition.values().stream().mapToInt(List::size).sum() < 2 * partitions) {
            UUID id = new UUID(rnd.nextLong(), rnd.nextLong());
            int p = org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(FrameRecords.key(id))) % partitions;
            List<UUID> ids = byPartition.computeIfAbsent(p, k -> new ArrayList<>());
            if (ids.size() < 2) {
                ids.add(id);
            }
        }
        return byPartition.values().stream().flatMap(List::stream).toList();
    }

    /** @param paceMillis how long each frame takes after the archive wrote it (0: no delay) */
    static KafkaConsumingCollector.Settings settings(String topic, String group, Path archive, Map<String, String> options, int paceMillis)
            throws IOException {
        List<DataHandler> handlers = List.of(new ArchiveHandler(), new Pace(paceMillis));
        return new KafkaConsumingCollector.Settings(KafkaBroker.shared().bootstrap(), topic, group, archive, handlers, options);
    }

    /** Every produced record in the archive once (none dropped), every frame sequence number of every agent once and none missing. */
    private static void assertEveryRecordOnce(Path archive, List<Agents.Run> runs) throws Exception {
        for (Agents.Run r : runs) {
            assertThat(r.dropped()).as("records agent %s dropped", r.agent()).isZero();
        }
        assertEveryWrittenRecordOnce(archive, runs);
    }

    /**
     * Every record each agent wrote (produced minus what it counted as dropped) in the archive once,
     * every frame sequence number of every agent once and none missing.
     */
    static void assertEveryWrittenRecordOnce(Path archive, List<Agents.Run> runs) throws Exception {
        Map<UUID, Map<Long, Integer>> frames = Archives.frameCounts(archive);
        assertThat(frames.keySet()).containsExactlyInAnyOrderElementsOf(runs.stream().map(Agents.Run::agent).toList());
        for (Agents.Run r : runs) {
            Map<Long, Integer> perSequence = frames.get(r.agent());
            Map<Long, Integer> twice = perSequence.entrySet().stream().filter(e -> e.getValue() != 1)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            assertThat(twice).as("frames of agent %s stored more than once", r.agent()).isEmpty();
            long highest = perSequence.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
            assertThat(perSequence).as("frames 0..%d of agent %s, none missing", highest, r.agent()).hasSize((int) highest + 1);
            assertThat(Archives.records(archive, r.agent())).as("records of agent %s", r.agent()).isEqualTo(r.produced() - r.dropped());
        }
    }

    /** Archives the whole topic with one consuming collector (group TOPIC-archivers) into {@code archive}, then stops it; returns {@code archive}. */
    static Path archiveTopic(String topic, Path archive) throws Exception {
        KafkaConsumingCollector consumer = KafkaConsumingCollector.start(settings(topic, topic + "-archivers", archive, Map.of(), 0), s -> {});
        try {
            awaitConsumed(topic, topic + "-archivers");
        } finally {
            assertThat(consumer.stop()).isTrue();
        }
        assertThat(consumer.failure()).isNull();
        return archive;
    }

    /** Waits until the group's committed offsets reach the end of every partition of the topic. */
    static void awaitConsumed(String topic, String group) throws Exception {
        try (Admin admin = KafkaBroker.shared().admin()) {
            GroupLag.awaitCaughtUp(admin, topic, group, 120_000);
        }
    }

    static long framesReceived(Collector c) {
        return c.receiverStatus().agents().values().stream().mapToLong(a -> a.frames()).sum();
    }

    private static long handled(Collector c) {
        return c.handlerStatus().stream().filter(h -> h.name().equals(KafkaPublishHandler.NAME)).mapToLong(HandlerStatus::handled).sum();
    }

    static void awaitTrue(BooleanSupplier condition, long millis, String what) throws InterruptedException {
        awaitTrue(condition, millis, () -> what);
    }

    static void awaitTrue(BooleanSupplier condition, long millis, Supplier<String> what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out after " + millis + " ms waiting for: " + what.get());
            }
            Thread.sleep(20);
        }
    }

    /** A lossless handler that takes some ms per frame, so a consumer is still busy when the test kills it (or only on its first frame). */
    static final class Pace implements DataHandler {
        private final int millis;
        private final boolean firstOnly;
        private boolean paced;

        Pace(int millis) {
            this(millis, false);
        }

        private Pace(int millis, boolean firstOnly) {
            this.millis = millis;
            this.firstOnly = firstOnly;
        }

        /** Stalls once, on the first frame. */
        static Pace once(int millis) {
            return new Pace(millis, true);
        }

        @Override
        public String name() {
            return "pace";
        }

        @Override
        public boolean lossless() {
            return true;
        }

        @Override
        public void open(HandlerConfig config) {}

        @Override
        public void handle(Envelope e) throws InterruptedException {
            if (millis > 0 && !(firstOnly && paced)) {
                paced = true;
                Thread.sleep(millis);
            }
        }

        @Override
        public void close() {}
    }
}
