package io.sonde.kafka.writer;

import io.sonde.core.writer.FrameDroppedException;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.write.StreamHeader;
import io.sonde.kafka.FrameRecords;
import io.sonde.kafka.PublishCounters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * the pipeline. What the broker refuses later (in the send's callback) is counted in
 * {@link #counters()}, the first ten reported on stderr, and the totals printed at close.
 */
public final class KafkaWriter implements Writer {
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final String topic;
    private final Properties properties;
    private final byte[] streamHeader = StreamHeader.bytes();
    private final PublishCounters counters;
    private WriterContext context;
    private Producer<byte[], byte[]> producer;
    private Thread writerThread;
    /** Writer thread only: a failure the producer reported during the current send() call, i.e. at once. */
    private Exception failedAtOnce;
    private boolean sending;

    /**
     * @param bootstrap the Kafka brokers
     * @param topic the topic to publish to
     * @param overrides any producer settings
     */
    public KafkaWriter(String bootstrap, String topic, Map<String, String> overrides) {
        this.topic = topic;
        this.properties = FrameRecords.producerProperties(bootstrap, 1000, overrides);
        this.counters = new PublishCounters("sonde writer=kafka (topic " + topic + ")", System.err::println);
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
            producer = new KafkaProducer<>(properties);
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
        ProducerRecord<byte[], byte[]> record = FrameRecords.record(topic, bytes, bytes.length, streamHeader);
        long backoffNanos = MIN_BACKOFF_NANOS;
        while (true) {
            Exception failed = trySend(record, sequence, bytes.length);
            if (failed == null) {
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
    private Exception trySend(ProducerRecord<byte[], byte[]> record, long sequence, int bytes) {
        failedAtOnce = null;
        sending = true;
        try {
            producer.send(record, (metadata, e) -> {
                if (e == null) {
                    counters.published(bytes);
                } else if (sending && Thread.currentThread() == writerThread) {
                    failedAtOnce = e;
                } else {
                    counters.refused(sequence, bytes, e);
                }
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

    @Override
    public void close() {
        if (producer != null) {
            // waits for the last sends' acknowledgements as long as the pipeline's close allows (shutdown.timeout.ms);
            // past that the producer aborts what is left, counted as refused
            long left = context != null && context.closing() ? context.closeDeadlineNanos() - System.nanoTime() : 0;
            producer.close(Duration.ofNanos(Math.max(left, TimeUnit.SECONDS.toNanos(1))));
            System.err.println(counters.summary());
        }
    }
}
