package io.sonde.kafka.publish;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.kafka.FrameRecords;
import io.sonde.kafka.PublishCounters;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The collector handler {@code kafka}: publishes every frame the collector receives to a Kafka
 * topic, undecoded (see {@link FrameRecords} for key, value and headers), so archiving collectors
 * consuming the topic as a group share the load ({@code sonde collector --kafka-consume}).
 *
 * <p>A <b>lossless</b> handler: it runs on the connection's thread, and {@link #force} (called
 * before the collector acknowledges frames to the agent) waits until Kafka acknowledged every frame
 * of the stream sent so far. So an agent hears ACK only for frames Kafka holds; a slow or
 * unreachable Kafka slows the connections (back-pressure: the agents' own buffers and drop
 * policies apply, and their drops are counted there), and nothing is dropped here.
 *
 * <p>Two kinds of failure:
 * <ul>
 *   <li><b>refused</b>: Kafka will never take the frame as it is (record too large, invalid
 *       record). Counted in {@link #counters()}, the first ten reported one line each on stderr,
 *       and acknowledged to the agent like a stored frame: re-sending would not help.</li>
 *   <li><b>not acknowledged</b>: anything else (no metadata or buffer space within
 *       {@code kafka.max.block.ms}, no acknowledgement within {@code kafka.ack.timeout.ms},
 *       authorization, the producer closed). The connection fails without acknowledging the
 *       frames after its last ACK, the collector forgets it held them, and the agent re-sends them
 *       when it reconnects. Counted as failed.</li>
 * </ul>
 * The producer retries for as long as it takes ({@code delivery.timeout.ms} at its maximum), so
 * one agent's frames reach the partition in the order sent: a frame never lands after a later one
 * of its stream, which the consuming collector's duplicate check (by highest sequence number)
 * relies on. Re-sent frames may land twice; the consuming collector drops the copies.
 *
 * <p>Until Kafka acknowledged a frame of this producer on a partition, frames go to that
 * partition one at a time, each waiting for its acknowledgement (see {@link #send}): brokers before
 * Kafka 4.5 could otherwise leave a request stuck on a partition just created (KAFKA-15591).
 *
 * <p>Options: {@code kafka.bootstrap} (required), {@code kafka.topic} (default {@value #DEFAULT_TOPIC}),
 * {@code kafka.max.block.ms} (how long a send may wait for metadata or buffer space, default
 * {@value #DEFAULT_MAX_BLOCK_MS}), {@code kafka.ack.timeout.ms} (how long {@link #force} waits for
 * Kafka's acknowledgements, default {@value #DEFAULT_ACK_TIMEOUT_MS}), and any producer setting as
 * {@code kafka.producer.<setting>}.
 */
public final class KafkaPublishHandler implements DataHandler {
    public static final String NAME = "kafka";
    public static final String DEFAULT_TOPIC = "sonde-frames";
    /** Default of {@code kafka.max.block.ms}: a send waiting this long for metadata or buffer space fails the connection. */
    public static final int DEFAULT_MAX_BLOCK_MS = 60_000;
    /** Default of {@code kafka.ack.timeout.ms}: a force waiting this long for Kafka's acknowledgements fails the connection. */
    public static final int DEFAULT_ACK_TIMEOUT_MS = 120_000;

    private final Map<StreamInfo, Unacknowledged> streams = new ConcurrentHashMap<>();
    /** Partitions on which Kafka acknowledged a frame of this producer. */
    private final Set<Integer> acknowledgedPartitions = ConcurrentHashMap.newKeySet();
    /** One lock per partition not yet acknowledged: its first frames go one at a time. */
    private final Map<Integer, Object> firstSends = new ConcurrentHashMap<>();
    private Producer<byte[], byte[]> producer;
    private String topic;
    private long ackTimeoutMillis;
    private volatile PublishCounters counters;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean lossless() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) {
        String bootstrap = config.option("kafka.bootstrap", "");
        if (bootstrap.isBlank()) {
            throw new IllegalArgumentException("handler kafka: option kafka.bootstrap (the Kafka brokers, HOST:PORT[,HOST:PORT...]) is required");
        }
        topic = config.option("kafka.topic", DEFAULT_TOPIC);
        ackTimeoutMillis = config.intOption("kafka.ack.timeout.ms", DEFAULT_ACK_TIMEOUT_MS);
        if (ackTimeoutMillis <= 0) {
            throw new IllegalArgumentException("handler kafka: option kafka.ack.timeout.ms must be positive, got " + ackTimeoutMillis);
        }
        counters = new PublishCounters("kafka handler (topic " + topic + ")", System.err::println);
        Map<String, String> overrides = new HashMap<>();
        // retry until acknowledged: a batch given up on could let a later frame of the agent land before it
        overrides.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(Integer.MAX_VALUE));
        overrides.putAll(FrameRecords.withPrefix(config.options(), "kafka.producer."));
        producer = new KafkaProducer<>(FrameRecords.producerProperties(bootstrap, config.intOption("kafka.max.block.ms", DEFAULT_MAX_BLOCK_MS),
                overrides));
    }

    /** Published, refused and failed frames so far (null before {@link #open}). */
    public PublishCounters counters() {
        return counters;
    }

    @Override
    public void streamStarted(StreamInfo stream) {
        streams.put(stream, new Unacknowledged(stream.streamHeader()));
    }

    @Override
    public void handle(Envelope e) throws IOException {
        Unacknowledged u = streams.get(e.stream());
        u.throwIfFailed(); // nothing after a failed frame: it would land before the agent's re-sent copy
        ProducerRecord<byte[], byte[]> r = FrameRecords.record(topic, e.array(), e.length(), u.streamHeader);
        u.sending();
        try {
            send(r, u, e.sequence(), e.length());
        } catch (RuntimeException notTaken) { // the producer closed, interrupted, no metadata in time
            u.done(notTaken, e.sequence(), e.length());
        }
        u.throwIfFailed(); // a send that failed at once (no metadata or buffer space in time) ends the connection here
    }

    /**
     * Sends one frame; on a partition where Kafka has not acknowledged a frame of this producer yet,
     * only one frame at a time, waiting for its acknowledgement. Kafka brokers before 4.5 accept any
     * first sequence number from an idempotent producer they have no state for (KAFKA-15591): with
     * two requests in flight to a partition the broker is only starting to lead (a topic just
     * created), the first can fail with NOT_LEADER_OR_FOLLOWER while the second is appended, and
     * the first then fails with OUT_OF_ORDER_SEQUENCE_NUMBER at every retry, so its connections
     * would wait for acknowledgements until {@code kafka.ack.timeout.ms}. The partition is the
     * producer's default for the key (murmur2 of the agent id), named in the record.
     */
    private void send(ProducerRecord<byte[], byte[]> r, Unacknowledged u, long sequence, int bytes) throws IOException {
        int partitions = producer.partitionsFor(topic).size(); // waits for metadata up to max.block.ms
        int partition = FrameRecords.partitionOf(r.key(), partitions);
        ProducerRecord<byte[], byte[]> placed = new ProducerRecord<>(topic, partition, r.key(), r.value(), r.headers());
        Callback done = u.callback(sequence, bytes);
        if (acknowledgedPartitions.contains(partition)) {
            producer.send(placed, done);
            return;
        }
        synchronized (firstSends.computeIfAbsent(partition, p -> new Object())) {
            Future<RecordMetadata> sent = producer.send(placed, (metadata, e) -> {
                if (e == null) {
                    acknowledgedPartitions.add(metadata.partition());
                }
                done.onCompletion(metadata, e);
            });
            if (acknowledgedPartitions.contains(partition)) {
                return; // another stream's first frame was acknowledged meanwhile
            }
            try {
                sent.get(ackTimeoutMillis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException failed) {
                // the callback counted it and failed the stream
            } catch (TimeoutException slow) {
                throw new IOException("Kafka did not acknowledge frame " + sequence + ", the first to partition " + partition + " of " + topic
                        + ", within " + ackTimeoutMillis + " ms (kafka.ack.timeout.ms); the agent re-sends it", slow);
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for Kafka to acknowledge frame " + sequence, stop);
            }
        }
    }

    @Override
    public void force(StreamInfo stream) throws IOException, InterruptedException {
        Unacknowledged u = streams.get(stream);
        if (u != null) {
            u.await(ackTimeoutMillis);
        }
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) throws IOException, InterruptedException {
        Unacknowledged u = streams.remove(stream);
        if (u != null && clean) {
            u.await(ackTimeoutMillis); // the receiver counts the stream's frames as held once it ends cleanly
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(30)); // sends what is buffered; callbacks count what is refused
            System.err.println(counters.summary());
        }
    }

    /** True for a refusal of the frame itself, which no retry or re-send can cure. */
    static boolean refusesTheFrame(Exception e) {
        return e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException || e instanceof InvalidRecordException;
    }

    /**
     * The frames of one stream (connection) sent and not yet acknowledged by Kafka, and the first
     * one Kafka failed to take. Guarded by itself: the connection's thread sends and waits, the
     * producer's I/O thread completes.
     */
    private final class Unacknowledged {
        final byte[] streamHeader;
        private long pending;
        private Exception failure;
        private long failedSequence;

        Unacknowledged(byte[] streamHeader) {
            this.streamHeader = streamHeader;
        }

        synchronized void sending() {
            pending++;
        }

        Callback callback(long sequence, int bytes) {
            return (metadata, e) -> done(e, sequence, bytes);
        }

        void done(Exception e, long sequence, int bytes) {
            if (e == null) {
                counters.published(bytes);
            } else if (refusesTheFrame(e)) {
                counters.refused(sequence, bytes, e);
            } else {
                counters.failed(sequence, bytes, e);
            }
            synchronized (this) {
                if (e != null && !refusesTheFrame(e) && failure == null) {
                    failure = e;
                    failedSequence = sequence;
                }
                if (--pending == 0) {
                    notifyAll();
                }
            }
        }

        synchronized void throwIfFailed() throws IOException {
            if (failure != null) {
                throw new IOException("Kafka did not acknowledge frame " + failedSequence + " (" + failure.getClass().getSimpleName() + ": "
                        + failure.getMessage() + "); the frames after the last acknowledgement stay with the agent, which re-sends them", failure);
            }
        }

        /** Waits until Kafka answered for every frame sent; throws if one failed or the answers take longer than {@code millis}. */
        synchronized void await(long millis) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + millis * 1_000_000L;
            while (pending > 0 && failure == null) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IOException("Kafka did not acknowledge " + pending + " frames within " + millis
                            + " ms (kafka.ack.timeout.ms); the agent re-sends them");
                }
                wait(Math.max(1, left / 1_000_000L));
            }
            throwIfFailed();
        }
    }
}
