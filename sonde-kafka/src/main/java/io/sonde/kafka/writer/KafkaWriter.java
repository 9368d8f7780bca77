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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;

/**
 * {@code writer=kafka}: the agent publishes its frames straight to a Kafka topic, for sites with
 * no collector tier; archiving collectors consume the topic as they would an edge collector's
 * ({@code sonde collector --kafka-consume}). Records are those of {@link FrameRecords} (key the
 * agent id, value the sealed frame). The stream opens with registry frames holding every
 * definition, as a new TCP connection or file segment does.
 *
 * <p>A send Kafka cannot take at once (buffer full past {@code max.block.ms}, metadata timeout)
 * drops the frame with reason writer-failed, counted by the pipeline; what the broker refuses
 * later (in the send's callback) is counted in {@link #counters()}, the first ten reported on
 * stderr, and the totals printed at close.
 */
public final class KafkaWriter implements Writer {
    private final String topic;
    private final Properties properties;
    private final byte[] streamHeader = StreamHeader.bytes();
    private final PublishCounters counters;
    private WriterContext context;
    private Producer<byte[], byte[]> producer;

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
        try {
            producer.send(FrameRecords.record(topic, bytes, bytes.length, streamHeader), counters.callback(sequence, bytes.length));
        } catch (RuntimeException e) {
            counters.refused(sequence, bytes.length, e);
            throw new FrameDroppedException("kafka did not take frame " + sequence + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void flush() {
        // the producer sends on its own thread within linger.ms; waiting for acknowledgements here would stall the pipeline
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(30));
            System.err.println(counters.summary());
        }
    }
}
