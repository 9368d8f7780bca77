package io.sonde.kafka.publish;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.kafka.FrameRecords;
import io.sonde.kafka.PublishCounters;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The collector handler {@code kafka}: publishes every frame the collector receives to a Kafka
 * topic, undecoded (see {@link FrameRecords} for key, value and headers), so archiving collectors
 * consuming the topic as a group share the load ({@code sonde collector --kafka-consume}).
 *
 * <p>A queued handler like the others: its own thread behind its own bounded queue, so a slow or
 * unreachable Kafka drops frames for this handler only (counted by the collector as the handler's
 * drops) and never stalls ingest. What Kafka refuses (a send that fails at once or in its callback:
 * record too large, topic missing, timeouts, authorization) is counted in {@link #counters()} and
 * the first ten are reported one line each on stderr; the totals are printed at close.
 *
 * <p>Options: {@code kafka.bootstrap} (required), {@code kafka.topic} (default {@value #DEFAULT_TOPIC}),
 * {@code kafka.max.block.ms} (how long a send may wait for metadata or buffer space, default 1000),
 * and any producer setting as {@code kafka.producer.<setting>}.
 */
public final class KafkaPublishHandler implements DataHandler {
    public static final String NAME = "kafka";
    public static final String DEFAULT_TOPIC = "sonde-frames";

    private final Map<StreamInfo, byte[]> streamHeaders = new ConcurrentHashMap<>();
    private Producer<byte[], byte[]> producer;
    private String topic;
    private volatile PublishCounters counters;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void open(HandlerConfig config) {
        String bootstrap = config.option("kafka.bootstrap", "");
        if (bootstrap.isBlank()) {
            throw new IllegalArgumentException("handler kafka: option kafka.bootstrap (the Kafka brokers, HOST:PORT[,HOST:PORT...]) is required");
        }
        topic = config.option("kafka.topic", DEFAULT_TOPIC);
        counters = new PublishCounters("kafka handler (topic " + topic + ")", System.err::println);
        producer = new KafkaProducer<>(FrameRecords.producerProperties(bootstrap, config.intOption("kafka.max.block.ms", 1000),
                FrameRecords.withPrefix(config.options(), "kafka.producer.")));
    }

    /** Published and refused frames so far (null before {@link #open}). */
    public PublishCounters counters() {
        return counters;
    }

    @Override
    public void streamStarted(StreamInfo stream) {
        streamHeaders.put(stream, stream.streamHeader());
    }

    @Override
    public void handle(Envelope e) {
        byte[] header = streamHeaders.get(e.stream());
        ProducerRecord<byte[], byte[]> r = FrameRecords.record(topic, e.array(), e.length(), header);
        try {
            producer.send(r, counters.callback(e.sequence(), e.length()));
        } catch (RuntimeException refused) { // buffer full past max.block.ms, metadata timeout, serialization
            counters.refused(e.sequence(), e.length(), refused);
        }
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) {
        streamHeaders.remove(stream);
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(30)); // sends what is buffered; callbacks count what is refused
            System.err.println(counters.summary());
        }
    }
}
