package io.sonde.kafka.consume;

import io.sonde.collector.Collector;
import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.archive.HeldSequences;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.format.Format;
import io.sonde.format.stream.DeliveryProtocol;
import io.sonde.kafka.FrameRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * A collector fed by a Kafka topic instead of agents' sockets: it consumes the frames that
 * {@code kafka} handlers published ({@link FrameRecords}) as a member of a consumer group and runs
 * the usual data handlers on them (archive, database, …), so N such collectors share the topic's
 * partitions and a failed one's partitions move to the others.
 *
 * <p><b>At least once, no duplicates in the archive.</b> One thread polls; each polled batch is
 * handed to the handlers, the lossless ones (the archive) are forced, and only then are the
 * batch's offsets committed. A collector that dies after archiving frames but before committing
 * leaves them to be consumed again by the partition's next owner, which drops them: per agent it
 * knows the highest sequence number the archive holds (read from the agent's segment files when it
 * first sees the agent after an assignment, as the TCP collector does at start) and skips frames at
 * or below it. This needs the collectors of a group to write <em>one</em> archive folder (on a
 * shared file system when they run on several machines); the archive counts segment indices again
 * when another collector wrote the agent's next segment.
 *
 * <p>Segments: each agent's frames go to a segment file of their own, started when the agent is
 * first seen after an assignment and ended at the agent's TRAILER (its connection to the edge
 * collector ended) or when the collector's partitions change.
 */
public final class KafkaConsumingCollector implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(200);

    /**
     * What a consuming collector runs.
     *
     * @param bootstrap the Kafka brokers, HOST:PORT[,HOST:PORT...]
     * @param topic the topic the edge collectors publish to
     * @param group the consumer group the archiving collectors share
     * @param out the archive folder (shared by the group's collectors)
     * @param handlers handlers in order ({@link HandlerSet#byName}); the archive among them makes consumption at-least-once
     * @param options handler options, and {@code kafka.consumer.<setting>} for any consumer setting
     */
    public record Settings(String bootstrap, String topic, String group, Path out, List<DataHandler> handlers, Map<String, String> options) {}

    /** Counters of a consuming collector. */
    public record Status(long records, long frames, long duplicates, long malformed, long commits, List<String> partitions) {}

    private final Settings settings;
    private final HandlerSet handlers;
    private final boolean archived;
    private final Consumer<String> notices;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Map<UUID, Stream> streams = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong commitsRefused = new AtomicLong();
    private volatile List<String> partitions = List.of();
    private volatile boolean stopping;
    private volatile boolean killed;
    private volatile Throwable failure;
    private long connections;

    /** One agent's frames since this collector was assigned its partition. */
    private static final class Stream {
        final StreamInfo info;
        long held;
        long index;
        /** Whether the handlers were told (the archive opened a segment): only at the first frame not held before. */
        boolean started;

        Stream(StreamInfo info, long held) {
            this.info = info;
            this.held = held;
        }
    }

    private KafkaConsumingCollector(Settings s, HandlerSet handlers, Consumer<String> notices) {
        this.settings = s;
        this.handlers = handlers;
        this.notices = notices;
        this.archived = s.handlers().stream().anyMatch(h -> h.name().equals(ArchiveHandler.NAME));
        this.consumer = new KafkaConsumer<>(consumerProperties(s));
        this.thread = new Thread(this::run, "sonde-kafka-consume");
    }

    /**
     * Opens the handlers, joins the group and starts consuming on a thread of its own.
     *
     * @param notices where problems are reported, one line each (thread-safe)
     * @throws IOException if a lossless handler (the archive) cannot open
     */
    public static KafkaConsumingCollector start(Settings s, Consumer<String> notices) throws IOException {
        HandlerConfig config = new HandlerConfig(s.out(), s.options());
        int queueFrames = config.intOption("queue.frames", HandlerSet.DEFAULT_QUEUE_FRAMES);
        long queueBytes = (long) config.intOption("queue.mib", (int) (HandlerSet.DEFAULT_QUEUE_BYTES >> 20)) << 20;
        HandlerSet set = HandlerSet.open(s.handlers(), config, queueFrames, queueBytes, notices);
        KafkaConsumingCollector c;
        try {
            c = new KafkaConsumingCollector(s, set, notices);
        } catch (RuntimeException e) {
            set.close(Collector.DRAIN_MILLIS);
            throw e;
        }
        c.thread.start();
        return c;
    }

    static Properties consumerProperties(Settings s) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, s.group());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"); // committed after the archive forced the frames
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(FrameRecords.MAX_REQUEST_BYTES));
        p.putAll(FrameRecords.withPrefix(s.options(), "kafka.consumer."));
        return p;
    }

    private void run() {
        try {
            consumer.subscribe(List.of(settings.topic()), new Rebalance());
            while (!stopping && !killed) {
                ConsumerRecords<byte[], byte[]> batch;
                try {
                    batch = consumer.poll(POLL);
                } catch (WakeupException e) {
                    break;
                }
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    if (killed) {
                        return; // as if the process died here: nothing forced, nothing committed
                    }
                    handle(r);
                }
                if (!batch.isEmpty()) {
                    forceAndCommit();
                }
            }
            if (!killed) {
                forceAndCommit();
                endStreams(true);
            }
        } catch (Throwable t) { // a lossless handler failed (disk full, …): stop consuming rather than commit what is not stored
            failure = t;
            notices.accept("sonde collector: consuming " + settings.topic() + " stopped: " + t);
            endStreams(false);
        } finally {
            consumer.close(killed
                    ? CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ZERO)
                    : CloseOptions.timeout(Duration.ofSeconds(10)));
        }
    }

    private void handle(ConsumerRecord<byte[], byte[]> r) throws Exception {
        records.incrementAndGet();
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        pending.put(tp, new OffsetAndMetadata(r.offset() + 1));
        byte[] frame = r.value();
        String problem = FrameRecords.problem(frame);
        byte[] streamHeader = FrameRecords.streamHeader(r.headers());
        if (problem == null && streamHeader == null) {
            problem = "no " + FrameRecords.STREAM_HEADER + " header of " + Format.STREAM_HEADER_BYTES + " bytes";
        }
        if (problem != null) {
            long n = malformed.incrementAndGet();
            if (n <= 10) {
                notices.accept("sonde collector: skipped record " + tp + "@" + r.offset() + ": " + problem);
            }
            return;
        }
        UUID agent = FrameRecords.agentOf(frame);
        Stream s = streams.get(agent);
        if (s == null) {
            StreamInfo info = new StreamInfo(++connections, agent, FrameRecords.hostOf(frame), FrameRecords.pidOf(frame),
                    "kafka " + tp, System.currentTimeMillis(), streamHeader, handlers.decodes());
            s = new Stream(info, archived ? HeldSequences.highest(settings.out(), agent) : -1);
            streams.put(agent, s);
        }
        long sequence = FrameRecords.sequenceOf(frame);
        boolean repeat = DeliveryProtocol.isRepeat(frame[Format.FRAME_OFF_FLAGS]);
        if (!repeat && sequence <= s.held) {
            duplicates.incrementAndGet(); // archived before, by this collector or the partition's previous owner
            return;
        }
        if (!s.started) {
            // not before: a stream of duplicates only (its trailer already archived by the previous owner) would leave an
            // empty segment after the one holding the trailer, which readers refuse
            s.started = true;
            handlers.streamStarted(s.info);
        }
        handlers.frame(new Envelope(s.info, s.index++, frame, frame.length));
        frames.incrementAndGet();
        if (!repeat) {
            s.held = sequence;
        }
        if (frame[Format.FRAME_OFF_TYPE] == Format.FRAME_TRAILER) {
            streams.remove(agent); // the agent's stream ended cleanly: its segment too
            handlers.force(s.info);
            handlers.streamEnded(s.info, true);
        }
    }

    /** Makes what the lossless handlers took durable, then commits the offsets past it. */
    private void forceAndCommit() throws Exception {
        for (Stream s : streams.values()) {
            if (s.started) handlers.force(s.info);
        }
        if (!pending.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = Map.copyOf(pending);
            pending.clear();
            try {
                try {
                    consumer.commitSync(offsets);
                } catch (WakeupException stopAsked) { // stop() woke the consumer while it was handling: commit anyway
                    consumer.commitSync(offsets);
                }
                commits.incrementAndGet();
            } catch (CommitFailedException | RebalanceInProgressException movedOn) {
                // the group rebalanced meanwhile (e.g. this member was slower than max.poll.interval.ms on a loaded
                // machine): the partitions may be another member's now. Not a reason to stop: what was archived and
                // not committed is consumed again by the partitions' next owner (this collector too, after it
                // rejoins at the next poll), which drops it as held by the shared archive
                long n = commitsRefused.incrementAndGet();
                if (n <= 10) {
                    notices.accept("sonde collector: committing " + offsets.keySet() + " refused, the group rebalanced (consumed again by the"
                            + " next owner, duplicates dropped): " + movedOn.getClass().getSimpleName());
                }
            }
        }
    }

    private void endStreams(boolean clean) {
        for (Stream s : streams.values()) {
            if (!s.started) continue;
            try {
                handlers.streamEnded(s.info, clean);
            } catch (Exception e) {
                notices.accept("sonde collector: ending the segment of " + s.info + ": " + e);
            }
        }
        streams.clear();
    }

    /**
     * Partitions move: finish and commit what is handled, end every segment, learn held sequences
     * again. Works for the eager protocol (everything revoked, then the new assignment) and the
     * incremental ones (only what moves is named), so the assignment is kept here from the names.
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        private final java.util.Set<TopicPartition> owned = new java.util.TreeSet<>(
                java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            if (killed) {
                return;
            }
            try {
                forceAndCommit();
            } catch (Exception e) {
                notices.accept("sonde collector: committing before giving up " + revoked + ": " + e);
            }
            endStreams(true);
            changed(revoked, false);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            pending.keySet().removeAll(lost); // no longer ours to commit
            endStreams(true);
            changed(lost, false);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
            changed(assigned, true);
        }

        private void changed(Collection<TopicPartition> which, boolean added) {
            if (added) {
                owned.addAll(which);
            } else {
                owned.removeAll(which);
            }
            partitions = owned.stream().map(TopicPartition::toString).toList();
        }
    }

    /** Counters so far; partitions are the ones assigned at the last rebalance. */
    public Status status() {
        return new Status(records.get(), frames.get(), duplicates.get(), malformed.get(), commits.get(), partitions);
    }

    /** Commits the group refused because it had rebalanced meanwhile (their frames are consumed again, duplicates dropped). */
    public long commitsRefused() {
        return commitsRefused.get();
    }

    /** Each handler's counters. */
    public List<HandlerStatus> handlerStatus() {
        return handlers.status();
    }

    /** What stopped consumption early (a lossless handler failed), or null. */
    public Throwable failure() {
        return failure;
    }

    /** Waits until the consuming thread ended (it ends by itself only after a failure). */
    public void await() throws InterruptedException {
        thread.join();
    }

    /**
     * Orderly stop: finishes the batch being handled, forces and commits it, ends the segments,
     * leaves the group (its partitions move at once), drains and closes the handlers.
     *
     * @return true if every queued handler drained in time
     */
    public boolean stop() {
        stopping = true;
        consumer.wakeup();
        join();
        return handlers.close(Collector.DRAIN_MILLIS);
    }

    /**
     * As if the process were killed: stops between two frames, without forcing, committing or
     * ending segments cleanly, and without leaving the group, so its partitions move only when the
     * group coordinator's session timeout expires. For tests of fail-over.
     */
    public void kill() {
        killed = true;
        consumer.wakeup();
        join();
        endStreams(false);
        handlers.close(1_000);
    }

    private void join() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
    }
}
