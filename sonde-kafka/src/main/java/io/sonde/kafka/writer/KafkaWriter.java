package io.sonde.kafka.writer;

import io.sonde.core.writer.FrameDroppedException;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.DropReason;
import io.sonde.format.write.StreamHeader;
import io.sonde.kafka.FrameRecords;
import io.sonde.kafka.PublishCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;

/**
 * {@code writer=kafka}: the agent publishes its frames straight to a Kafka topic, for sites with
 * no collector tier; archiving collectors consume the topic as they would an edge collector's
 * ({@code sonde collector --kafka-consume}). Records are those of {@link FrameRecords} (key the
 * agent id, value the sealed frame). The stream opens with registry frames holding every
 * definition, as a new TCP connection or file segment does.
 *
 * <p>A send Kafka cannot take at once for a passing reason (no metadata for the topic yet, the
 * producer's buffer full, each after {@code max.block.ms}) is tried again with back-off (100 ms
 * doubling to 5 s) for as long as it takes, holding the writer thread as a TCP writer that
 * reconnects does: the rings fill and the producers' policy applies. So the registry frames that
 * open the stream are not lost to a broker that answers slowly at start. Past the pipeline's close
 * deadline, or for any other failure, the frame is dropped with reason writer-failed, counted by
 * the pipeline. What the broker refuses later (in the send's callback, e.g. a record too large
 * for the topic, or aborted by a producer that closes before it was acknowledged) is counted in
 * {@link #counters()}, the first ten reported on stderr, the totals printed at close, and its
 * records are reported to the pipeline as dropped after all (reason writer-failed,
 * {@link WriterContext#droppedAfterWrite}): the agent's counters never count as written a record
 * Kafka refused or the producer aborted. At close the writer waits for every outstanding
 * acknowledgement up to the close deadline before the trailer's counts are taken
 * ({@link #awaitDelivery}), so the trailer has what was refused until then; frames aborted after
 * the deadline are in the counters only.
 *
 * <p>A frame carrying definitions (a registry block) waits for its acknowledgement before the
 * writer takes the next frame: if Kafka refuses it, the writer reports it
 * ({@link WriterContext#definitionsLostAfterWrite}) and the pipeline sends every definition again
 * before its next frame, so no record after the refused frame lacks a definition. Definitions are
 * new at start and when code is first instrumented, so this costs a round trip now and then.
 */
public final class KafkaWriter implements Writer {
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String topic;
    private final Properties properties;
    private final byte[] streamHeader = StreamHeader.bytes();
    private final PublishCounters counters;
    private final Function<Properties, Producer<byte[], byte[]>> producers;
    private WriterContext context;
    private Producer<byte[], byte[]> producer;
    private Thread writerThread;
    /** Writer thread only: a failure the producer reported during the current send() call, i.e. at once. */
    private Exception failedAtOnce;
    private boolean sending;
    /** Writer thread only: sends the producer took (each gets exactly one callback later). */
    private long taken;
    /** Callbacks of taken sends so far, acknowledged or refused (the producer's I/O thread). */
    private final AtomicLong settled = new AtomicLong();

    /**
     * @param bootstrap the Kafka brokers
     * @param topic the topic to publish to
     * @param overrides any producer settings
     */
    public KafkaWriter(String bootstrap, String topic, Map<String, String> overrides) {
        this(bootstrap, topic, overrides, KafkaProducer::new);
    }

    /** As above, the producer made by {@code producers} from the settings (tests: a producer whose acknowledgements they control). */
    KafkaWriter(String bootstrap, String topic, Map<String, String> overrides, Function<Properties, Producer<byte[], byte[]>> producers) {
        this.topic = topic;
        this.properties = FrameRecords.producerProperties(bootstrap, 1000, overrides);
        this.counters = new PublishCounters("sonde writer=kafka (topic " + topic + ")", System.err::println);
        this.producers = producers;
    }

    /** Published and refused frames so far. */
    public PublishCounters counters() {
        return counters;
    }

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        this.writerThread = Thread.currentThread();
        try {
            producer = producers.apply(properties);
        } catch (RuntimeException e) {
            throw new IOException("writer=kafka cannot start its producer: " + e.getMessage(), e);
        }
        context.registryFrames(this::send);
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        context.seal(frame);
        send(frame);
    }

    private void send(ByteBuffer sealed) throws IOException {
        byte[] bytes = new byte[sealed.remaining()];
        sealed.get(sealed.position(), bytes);
        long sequence = FrameRecords.sequenceOf(bytes);
        long records = context.recordsInFrame(); // counted as written once this returns; dropped after all if Kafka refuses later
        boolean definitions = context.definitionsInFrame(); // sent again by the pipeline if Kafka refuses them later
        ProducerRecord<byte[], byte[]> record = FrameRecords.record(topic, bytes, bytes.length, streamHeader);
        long backoffNanos = MIN_BACKOFF_NANOS;
        while (true) {
            Exception failed = trySend(record, sequence, bytes.length, records, definitions);
            if (failed == null) {
                taken++;
                if (counters.published() == 0 || definitions) {
                    // until Kafka acknowledged one frame of this producer, it is the only one in flight: see awaitSettled.
                    // A frame with definitions is settled before the next frame goes: if Kafka refuses it, the pipeline
                    // sends the definitions again before any later record that may use them
                    awaitSettled();
                }
                return;
            }
            if (!(failed instanceof RetriableException) || (context.closing() && System.nanoTime() >= context.closeDeadlineNanos())) {
                counters.refused(sequence, bytes.length, failed);
                throw new FrameDroppedException("kafka did not take frame " + sequence + ": " + failed.getMessage(), failed);
            }
            counters.failed(sequence, bytes.length, failed);
            pause(backoffNanos);
            backoffNanos = Math.min(MAX_BACKOFF_NANOS, backoffNanos * 2);
        }
    }

    /** One send; returns what failed at once (the producer reports those through the callback, on this thread), or null. */
    private Exception trySend(ProducerRecord<byte[], byte[]> record, long sequence, int bytes, long records, boolean definitions) {
        failedAtOnce = null;
        sending = true;
        try {
            producer.send(record, (metadata, e) -> {
                if (e != null && sending && Thread.currentThread() == writerThread) {
                    failedAtOnce = e; // not taken: send() tries again or drops the frame itself
                    return;
                }
                if (e == null) {
                    counters.published(bytes);
                } else {
                    counters.refused(sequence, bytes, e);
                    if (records > 0) {
                        context.droppedAfterWrite(DropReason.WRITER_FAILED, records);
                    }
                    if (definitions) {
                        context.definitionsLostAfterWrite();
                    }
                }
                settled.incrementAndGet();
            });
        } catch (RuntimeException e) { // the producer closed or the thread interrupted
            return e;
        } finally {
            sending = false;
        }
        return failedAtOnce;
    }

    /** Waits before the next try, not past the close deadline once the pipeline is closing (the stop request unparks the writer thread). */
    private void pause(long nanos) {
        long end = System.nanoTime() + nanos;
        while (!Thread.currentThread().isInterrupted()) {
            long stop = context.closing() ? Math.min(end, context.closeDeadlineNanos()) : end;
            long left = stop - System.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(this, left);
        }
    }

    @Override
    public void flush() {
        // the producer sends on its own thread within linger.ms; waiting for acknowledgements here would stall the pipeline
    }

    /**
     * Waits until every frame the producer took is acknowledged or refused, up to the close
     * deadline ({@code shutdown.timeout.ms}), so that the trailer counts what Kafka refused. What
     * is still outstanding then is left to {@link #close()}.
     */
    @Override
    public void awaitDelivery() {
        if (producer != null && !awaitSettled()) {
            System.err.println(counters.who() + ": " + (taken - settled.get()) + " frames not acknowledged by the close deadline"
                    + " (the trailer counts them as written; the agent's counters as dropped if the producer aborts them)");
        }
    }

    /**
     * Waits until every frame the producer took is acknowledged or refused; while the pipeline
     * runs as long as that takes (the rings fill and the policy applies, as for any writer that
     * cannot deliver), once it closes not past the close deadline. Returns whether all settled.
     *
     * <p>Also used for a producer's first frames (until one is acknowledged): Kafka brokers before
     * 4.5 accept any first sequence number from an idempotent producer they have no state for
     * (KAFKA-15591). When two requests are in flight to a partition the broker is only starting to
     * lead (a topic just created), the first can fail with NOT_LEADER_OR_FOLLOWER while the second
     * is appended; every retry of the first then fails with OUT_OF_ORDER_SEQUENCE_NUMBER until
     * {@code delivery.timeout.ms}, and its frames are lost (KafkaTransportTest lost frames 0 to 62 of
     * an agent this way on a loaded machine, the first request's 63 frames, aborted at close). Once
     * the broker acknowledged a frame it has this producer's sequence, and a reordered request is
     * refused and retried in order instead.
     */
    private boolean awaitSettled() {
        while (settled.get() < taken) {
            if (Thread.currentThread().isInterrupted() || (context.closing() && System.nanoTime() >= context.closeDeadlineNanos())) {
                return false;
            }
            long slice = TimeUnit.MILLISECONDS.toNanos(5);
            LockSupport.parkNanos(this, context.closing() ? Math.min(slice, Math.max(1, context.closeDeadlineNanos() - System.nanoTime())) : slice);
        }
        return true;
    }

    @Override
    public void close() {
        if (producer != null) {
            // waits for the trailer's acknowledgement (awaitDelivery waited for the frames before it) as long as the
            // pipeline's close deadline allows; past it the producer aborts what is left at once (the pipeline interrupts
            // the writer thread soon after the deadline), counted as refused and reported as dropped after write.
            // Not closing: the writer failed to open or the pipeline gave up on it; a short wait.
            long wait = context != null && context.closing() ? Math.max(0, context.closeDeadlineNanos() - System.nanoTime())
                    : TimeUnit.SECONDS.toNanos(1);
            producer.close(Duration.ofNanos(wait));
            System.err.println(counters.summary());
        }
    }
}
