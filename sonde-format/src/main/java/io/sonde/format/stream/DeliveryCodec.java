package io.sonde.format.stream;

import io.sonde.format.observe.MalformedMessageException;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.observe.WireBuffer;
import io.sonde.format.read.FrameHeader;
import java.time.Instant;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Encodes and decodes the frames of acknowledged delivery. An encoder belongs to one direction of
 * one connection: it numbers its frames 0, 1, 2, … (the numbers of the back channel are its own,
 * not the agent's). Not thread-safe.
 */
public final class DeliveryCodec {
    private final io.sonde.format.write.FrameHeader header;
    private final LongSupplier wallNanos;
    private final LongSupplier monoNanos;
    private final Payload payload = new Payload();
    private long sequence;

    /** Frames stamped with the system clocks. */
    public DeliveryCodec(UUID agentId, long pid, String host) {
        this(agentId, pid, host, DeliveryCodec::wallNow, System::nanoTime);
    }

    /** Frames stamped with the given clocks (golden tests). */
    public DeliveryCodec(UUID agentId, long pid, String host, LongSupplier wallNanos, LongSupplier monoNanos) {
        this.header = new io.sonde.format.write.FrameHeader(agentId, pid, host);
        this.wallNanos = wallNanos;
        this.monoNanos = monoNanos;
    }

    private static long wallNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** A sealed HELLO frame. */
    public byte[] hello(DeliveryMessage.Hello m) {
        payload.begin();
        payload.str(m.token()).i64(m.acknowledged()).i64(m.next());
        ObserveEndpoint o = m.observe();
        if (o != null) payload.u16(o.port()).str(o.host()).u8(o.tls() ? ObserveEndpoint.FLAG_TLS : 0);
        return frame(DeliveryProtocol.FRAME_HELLO);
    }

    /** A sealed ACCEPT frame. */
    public byte[] accept(long held) {
        payload.begin();
        payload.i64(held);
        return frame(DeliveryProtocol.FRAME_ACCEPT);
    }

    /** A sealed REFUSE frame. */
    public byte[] refuse(int code, String reason) {
        payload.begin();
        payload.u8(code).str(reason);
        return frame(DeliveryProtocol.FRAME_REFUSE);
    }

    /** A sealed ACK frame. */
    public byte[] ack(long durable) {
        payload.begin();
        payload.i64(durable);
        return frame(DeliveryProtocol.FRAME_ACK);
    }

    private byte[] frame(byte type) {
        byte[] body = payload.toByteArray();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(header.headerBytes() + body.length);
        header.open(b, type);
        b.put(body);
        header.seal(b, sequence++, wallNanos.getAsLong(), monoNanos.getAsLong());
        return b.array();
    }

    /**
     * Decodes a handshake or acknowledgement frame that passed the envelope checks.
     *
     * @return the message, or null for a frame type that is none of HELLO, ACCEPT, REFUSE, ACK
     * @throws MalformedMessageException if the payload does not hold exactly the message's fields
     */
    public static DeliveryMessage decode(FrameHeader h, byte[] frame) {
        PayloadReader r = new PayloadReader(frame, h.headerLength(), h.length());
        DeliveryMessage m;
        switch (h.type()) {
            case DeliveryProtocol.FRAME_HELLO:
                m = hello(r);
                break;
            case DeliveryProtocol.FRAME_ACCEPT:
                m = new DeliveryMessage.Accept(r.i64());
                break;
            case DeliveryProtocol.FRAME_REFUSE:
                m = new DeliveryMessage.Refuse(r.u8(), r.str());
                break;
            case DeliveryProtocol.FRAME_ACK:
                m = new DeliveryMessage.Ack(r.i64());
                break;
            default:
                return null;
        }
        r.end();
        return m;
    }

    /** HELLO: the 2.2 fields, then (2.3) the observe endpoint if bytes follow. */
    private static DeliveryMessage.Hello hello(PayloadReader r) {
        String token = r.str();
        long acknowledged = r.i64();
        long next = r.i64();
        if (!r.hasMore()) return new DeliveryMessage.Hello(token, acknowledged, next);
        int port = r.u16();
        String host = r.str();
        int flags = r.u8();
        if (port == 0) throw new MalformedMessageException("HELLO: observe port 0 (an agent without an observe endpoint sends no observe fields)");
        if ((flags & ~ObserveEndpoint.FLAG_TLS) != 0) throw new MalformedMessageException("HELLO: unknown observe flags 0x" + Integer.toHexString(flags));
        return new DeliveryMessage.Hello(token, acknowledged, next, new ObserveEndpoint(host, port, (flags & ObserveEndpoint.FLAG_TLS) != 0));
    }

    /** The payload builder: a {@link WireBuffer} that can start over. */
    private static final class Payload extends WireBuffer {
        Payload() {
            super(256);
        }

        void begin() {
            buf.clear();
        }
    }
}
