package io.sonde.kafka;

import io.sonde.format.Format;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * How a Sonde frame travels as a Kafka record: the value is the frame's bytes exactly as the
 * agent sealed them (undecoded, CRC included); the key is the agent id (its canonical text, UTF-8),
 * so one agent's frames stay in one partition, in order; headers {@value #SEQUENCE} (the frame's
 * sequence number, 8 bytes big-endian, also in the frame itself) and {@value #STREAM_HEADER} (the
 * 12 stream-header bytes of the agent's stream, which a consuming collector writes at the start
 * of each segment file).
 */
public final class FrameRecords {
    /** Header with the frame's sequence number (8 bytes, big-endian). */
    public static final String SEQUENCE = "sonde.sequence";
    /** Header with the stream header of the frame's stream (12 bytes). */
    public static final String STREAM_HEADER = "sonde.stream-header";
    /** Largest frame a publisher sends (the collector's default frame limit, 16 MiB), plus room for the record's own overhead. */
    public static final int MAX_REQUEST_BYTES = (16 << 20) + (64 << 10);

    private FrameRecords() {}

    /** The record for one whole frame: bytes [0, length) of {@code frame} (copied if the array is longer). */
    public static ProducerRecord<byte[], byte[]> record(String topic, byte[] frame, int length, byte[] streamHeader) {
        byte[] value = frame.length == length ? frame : java.util.Arrays.copyOf(frame, length);
        Headers h = new RecordHeaders();
        h.add(SEQUENCE, ByteBuffer.allocate(8).putLong(sequenceOf(value)).array());
        h.add(STREAM_HEADER, streamHeader);
        return new ProducerRecord<>(topic, null, key(agentOf(value)), value, h);
    }

    /**
     * The partition Kafka's default partitioner gives a record with this key among {@code partitions}
     * (murmur2 of the key), for publishers that must know it before sending.
     */
    public static int partitionOf(byte[] key, int partitions) {
        return org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(key)) % partitions;
    }

    /** The record key of an agent's frames. */
    public static byte[] key(UUID agent) {
        return agent.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks that a record value is one whole frame (magic, length field equal to the value's
     * length, header long enough) and returns null, or what is wrong with it.
     */
    public static String problem(byte[] value) {
        if (value == null) {
            return "no value";
        }
        if (value.length < Format.FRAME_FIXED_HEADER_BYTES) {
            return "value of " + value.length + " bytes is shorter than a frame header (" + Format.FRAME_FIXED_HEADER_BYTES + ")";
        }
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) {
            return "value does not start with the frame magic";
        }
        long length = Integer.toUnsignedLong(b.getInt(Format.FRAME_OFF_LENGTH));
        if (length != value.length) {
            return "frame length field says " + length + " bytes, the value has " + value.length;
        }
        int hostLength = b.getShort(Format.FRAME_OFF_HOST_LENGTH) & 0xFFFF;
        if (Format.FRAME_OFF_HOST + hostLength > value.length) {
            return "host name of " + hostLength + " bytes runs past the frame";
        }
        return null;
    }

    /** The stream header carried by a record, or null if absent or not 12 bytes. */
    public static byte[] streamHeader(Headers headers) {
        Header h = headers.lastHeader(STREAM_HEADER);
        return h == null || h.value() == null || h.value().length != Format.STREAM_HEADER_BYTES ? null : h.value();
    }

    public static UUID agentOf(byte[] frame) {
        ByteBuffer b = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        return new UUID(b.getLong(Format.FRAME_OFF_AGENT_MSB), b.getLong(Format.FRAME_OFF_AGENT_LSB));
    }

    public static long sequenceOf(byte[] frame) {
        return ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getLong(Format.FRAME_OFF_SEQUENCE);
    }

    public static long pidOf(byte[] frame) {
        return Integer.toUnsignedLong(ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(Format.FRAME_OFF_PID));
    }

    /** The host name of a frame that passed {@link #problem}. */
    public static String hostOf(byte[] frame) {
        int n = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getShort(Format.FRAME_OFF_HOST_LENGTH) & 0xFFFF;
        return new String(frame, Format.FRAME_OFF_HOST, n, StandardCharsets.UTF_8);
    }

    /**
     * Producer settings for frames: byte-array serializers, every replica acknowledging,
     * idempotence (so retries keep one agent's frames in order and single), requests large enough
     * for the largest frame, then {@code overrides} (any producer setting).
     */
    public static Properties producerProperties(String bootstrap, int maxBlockMillis, Map<String, String> overrides) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.ByteArraySerializer");
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "org.apache.kafka.common.serialization.ByteArraySerializer");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 << 10));
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(MAX_REQUEST_BYTES));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(maxBlockMillis));
        p.putAll(overrides);
        return p;
    }

    /** The options starting with {@code prefix}, without it: {@code kafka.producer.linger.ms=20} gives {@code linger.ms=20}. */
    public static Map<String, String> withPrefix(Map<String, String> options, String prefix) {
        Map<String, String> out = new java.util.TreeMap<>();
        options.forEach((k, v) -> {
            if (k.startsWith(prefix) && k.length() > prefix.length()) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
