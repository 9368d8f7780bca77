package io.sonde.bench.kafka;

import io.sonde.bench.common.Folders;
import io.sonde.bench.common.OptionArgs;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.collector.Collector;
import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.kafka.FrameRecords;
import io.sonde.kafka.consume.GroupLag;
import io.sonde.kafka.consume.KafkaConsumingCollector;
import io.sonde.kafka.publish.KafkaPublishHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Utils;

/**
 * Kafka transport benchmark ({@code ./sonde bench kafka [--quick] [--json F] [--seconds S]
 * [--threads N] [--partitions N] [--bootstrap HOST:PORT] [--dir D] [--cache DIR]}): records/s
 * through agent → edge collector → Kafka → two archiving collectors of one consumer group. Agents
 * (each a JVM of its own with a sonde-core pipeline and the TCP writer, {@code policy=block-forever},
 * so every record travels; their ids spread over the partitions) make calls from N threads for S
 * seconds into an edge collector running only the {@code kafka} handler; two {@code --kafka-consume} collectors share one archive folder. The clock
 * runs from the agent's first call until the group has committed the end of the topic, i.e. until
 * everything is forced into the archive. Without {@code --bootstrap} a single-node KRaft broker is
 * started in a JVM of its own from the Maven Central jars (resolved into the cache).
 */
public final class KafkaBenchmark {
    private KafkaBenchmark() {}

    record Result(double seconds, long records, long frames, long archivedRecords, double agentSeconds, double publishedSeconds,
            double recordsPerSecond, double agentRecordsPerSecond, long published, long refused, long edgeDropped, List<Consumer> consumers) {}

    record Consumer(long frames, long duplicates, long commits, List<String> partitions) {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path json = null;
        Path dir = null;
        String bootstrap = null;
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        int threads = 2;
        int agents = -1;
        int partitions = 4;
        double seconds = -1;
        OptionArgs a = new OptionArgs(args);
        while (a.next()) {
            if (a.option().equals("--quick")) {
                quick = true;
                continue;
            }
            String option = a.option(); // before value(), which moves past the option
            String v = a.value();
            switch (option) {
                case "--json" -> json = Path.of(v);
                case "--dir" -> dir = Path.of(v);
                case "--cache" -> cache = Path.of(v);
                case "--bootstrap" -> bootstrap = v;
                case "--threads" -> threads = (int) OptionArgs.parseLong("--threads", v, 1);
                case "--agents" -> agents = (int) OptionArgs.parseLong("--agents", v, 1);
                case "--partitions" -> partitions = (int) OptionArgs.parseLong("--partitions", v, 1);
                case "--seconds" -> seconds = OptionArgs.parseLong("--seconds", v, 1);
                default -> throw new IllegalArgumentException("unknown option '" + option
                        + "'; options: --quick --json F --seconds S --agents N --threads N --partitions N --bootstrap HOST:PORT --dir D --cache DIR");
            }
        }
        double runSeconds = seconds > 0 ? seconds : quick ? 2 : 20;
        int agentCount = agents > 0 ? agents : quick ? 2 : 4;
        Path base = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        Path work = Files.createTempDirectory(base, "sonde-kafka-bench-");
        BrokerProcess broker = null;
        try {
            if (bootstrap == null) {
                System.out.println("kafka benchmark: starting a single-node KRaft broker (" + BrokerProcess.KAFKA + ") in its own JVM ...");
                broker = BrokerProcess.start(new ArtifactCache(cache), work.resolve("broker"));
                bootstrap = broker.bootstrap();
            }
            System.out.printf(Locale.ROOT, "kafka benchmark: broker %s, %d partitions, %d agent JVMs with %d threads each for %.0f s, folder %s%n",
                    bootstrap, partitions, agentCount, threads, runSeconds, work);
            Result r = run(bootstrap, partitions, agentCount, threads, runSeconds, work);
            System.out.println(describe(r));
            if (json != null) {
                Files.writeString(json, json(r, bootstrap, partitions, agentCount, threads, runSeconds));
                System.out.println("wrote " + json);
            }
            if (r.archivedRecords() != r.records()) {
                throw new IllegalStateException("the archive holds " + r.archivedRecords() + " records, the agent wrote " + r.records());
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
            Folders.deleteTree(work);
        }
    }

    static Result run(String bootstrap, int partitions, int agents, int threads, double seconds, Path work) throws Exception {
        String topic = "sonde-bench-" + System.currentTimeMillis();
        String group = topic + "-archivers";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
            Path archive = work.resolve("archive");
            List<KafkaConsumingCollector> consumers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                consumers.add(KafkaConsumingCollector.start(new KafkaConsumingCollector.Settings(bootstrap, topic, group, archive,
                        List.of(new ArchiveHandler()), Map.of()), System.err::println));
            }
            KafkaPublishHandler publish = new KafkaPublishHandler();
            Collector edge = Collector.start(new Collector.Settings(new InetSocketAddress("127.0.0.1", 0), work.resolve("edge"), List.of(publish),
                    Map.of("kafka.bootstrap", bootstrap, "kafka.topic", topic)), ReceiverListener.none(), System.err::println);
            long start;
            long written;
            long agentDone;
            long publishedAt;
            try {
                AgentProcess.Run run = AgentProcess.runAll(edge.port(), spreadIds(agents, partitions), threads, seconds, work.resolve("agents"));
                written = run.written();
                start = run.startNanos();
                agentDone = System.nanoTime();
            } finally {
                edge.stop(); // the agents closed with every frame acknowledged, i.e. in Kafka; the producer is closed
            }
            publishedAt = System.nanoTime();
            GroupLag.awaitCaughtUp(admin, topic, group, 600_000);
            long end = System.nanoTime();
            List<Consumer> cs = new ArrayList<>();
            for (KafkaConsumingCollector c : consumers) {
                KafkaConsumingCollector.Status st = c.status(); // partitions before stop (a stop gives them up)
                c.stop();
                cs.add(new Consumer(c.status().frames(), st.duplicates(), c.status().commits(), st.partitions()));
            }
            long edgeDropped = edge.handlerStatus().stream().mapToLong(HandlerStatus::dropped).sum();
            double total = (end - start) / 1e9;
            return new Result(total, written, publish.counters().published() + publish.counters().refused(), records(archive),
                    (agentDone - start) / 1e9, (publishedAt - start) / 1e9, written / total, written / ((agentDone - start) / 1e9),
                    publish.counters().published(), publish.counters().refused(), edgeDropped, cs);
        }
    }

    /**
     * Agent ids the producer's default partitioner spreads evenly over the partitions (agent i to
     * partition i * partitions / agents while there are fewer agents than partitions), so with the
     * consumers' range assignment both collectors get work.
     */
    static List<UUID> spreadIds(int agents, int partitions) {
        List<UUID> ids = new ArrayList<>();
        java.util.Random rnd = new java.util.Random(42);
        while (ids.size() < agents) {
            int i = ids.size();
            int wanted = agents <= partitions ? i * partitions / agents : i % partitions;
            UUID id = new UUID(rnd.nextLong(), rnd.nextLong());
            if (partitionOf(id, partitions) == wanted) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** The partition the producer's default partitioner gives an agent's records (murmur2 of the key). */
    static int partitionOf(UUID agent, int partitions) {
        return Utils.toPositive(Utils.murmur2(FrameRecords.key(agent))) % partitions;
    }

    /** Records in the archive, read back with the format's reader (a duplicate frame would count twice). */
    private static long records(Path archive) throws IOException {
        long n = 0;
        for (AgentLog log : SondeLogs.scan(archive)) {
            try (SondeReader r = log.open()) {
                while (r.next()) {
                    if (r.type() <= Format.EVENT) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    static String describe(Result r) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "agents → edge collector → Kafka → 2 archiving collectors: %d records in %.2f s = %.0f records/s end to end"
                        + " (agents alone %.0f records/s in %.2f s; all published after %.2f s); %d frames published, %d refused, %d dropped at the edge;"
                        + " archive holds %d records",
                r.records(), r.seconds(), r.recordsPerSecond(), r.agentRecordsPerSecond(), r.agentSeconds(), r.publishedSeconds(), r.published(),
                r.refused(), r.edgeDropped(), r.archivedRecords()));
        for (int i = 0; i < r.consumers().size(); i++) {
            Consumer c = r.consumers().get(i);
            b.append(String.format(Locale.ROOT, "%n  consumer %d: %d frames archived, %d duplicates dropped, %d commits, partitions %s", i + 1,
                    c.frames(), c.duplicates(), c.commits(), c.partitions()));
        }
        return b.toString();
    }

    static String json(Result r, String bootstrap, int partitions, int agents, int threads, double seconds) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "{%n  \"benchmark\": \"kafka\",%n  \"bootstrap\": \"%s\",%n  \"partitions\": %d,%n  \"agents\": %d,%n  \"agentThreads\": %d,%n  \"agentSeconds\": %.1f,%n"
                        + "  \"records\": %d,%n  \"archivedRecords\": %d,%n  \"frames\": %d,%n  \"published\": %d,%n  \"refused\": %d,%n"
                        + "  \"edgeDropped\": %d,%n  \"seconds\": %.3f,%n  \"recordsPerSecond\": %.0f,%n  \"agentRecordsPerSecond\": %.0f,%n"
                        + "  \"publishedAfterSeconds\": %.3f,%n  \"consumers\": [",
                bootstrap, partitions, agents, threads, seconds, r.records(), r.archivedRecords(), r.frames(), r.published(), r.refused(), r.edgeDropped(),
                r.seconds(), r.recordsPerSecond(), r.agentRecordsPerSecond(), r.publishedSeconds()));
        for (int i = 0; i < r.consumers().size(); i++) {
            Consumer c = r.consumers().get(i);
            b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%n    {\"frames\": %d, \"duplicates\": %d, \"commits\": %d, \"partitions\": %d}",
                    c.frames(), c.duplicates(), c.commits(), c.partitions().size()));
        }
        return b.append(String.format("%n  ]%n}%n")).toString();
    }
}
