package io.sonde.format.observe;

import io.sonde.format.Format;
import io.sonde.format.write.FrameHeader;
import io.sonde.format.write.StreamHeader;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Builds LIVE frames, one message each: {@link #begin} opens a frame and puts the message type,
 * the caller appends the fields with the {@link WireBuffer} methods, {@link #writeTo} seals the frame
 * (length, next sequence number, times, CRC-32C) and writes it. One writer per connection direction;
 * callers serialise its use (the frame buffer is reused).
 */
public final class LiveFrameWriter extends WireBuffer {
    private final FrameHeader header;
    private final LongSupplier wallNanos;
    private final LongSupplier monoNanos;
    private long sequence;

    /** Frames stamped with the system clocks. */
    public LiveFrameWriter(UUID senderId, long pid, String host) {
        this(senderId, pid, host, LiveFrameWriter::wallNow, System::nanoTime);
    }

    /** Frames stamped with the given clocks (golden tests). */
    public LiveFrameWriter(UUID senderId, long pid, String host, LongSupplier wallNanos, LongSupplier monoNanos) {
        super(4096);
        this.header = new FrameHeader(senderId, pid, host);
        this.wallNanos = wallNanos;
        this.monoNanos = monoNanos;
    }

    private static long wallNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Opens a frame for a message of {@code messageType}; the fields follow. */
    public LiveFrameWriter begin(byte messageType) {
        header.open(buf, ObserveProtocol.FRAME_LIVE);
        u8(messageType);
        return this;
    }

    /** Seals the frame begun last and returns its bytes (a copy). */
    public byte[] seal() {
        header.seal(buf, sequence++, wallNanos.getAsLong(), monoNanos.getAsLong());
        byte[] out = new byte[buf.limit()];
        buf.get(0, out);
        buf.clear();
        return out;
    }

    /** Seals the frame begun last and writes it to {@code out} (not flushed). */
    public void writeTo(OutputStream out) throws IOException {
        header.seal(buf, sequence++, wallNanos.getAsLong(), monoNanos.getAsLong());
        out.write(buf.array(), 0, buf.limit());
        buf.clear();
    }

    /** The stream header of an observe stream: format 2.1, the first version with LIVE frames. */
    public static byte[] streamHeader() {
        byte[] h = StreamHeader.bytes();
        h[Format.STREAM_OFF_MAJOR] = (byte) ObserveProtocol.STREAM_MAJOR_VERSION;
        h[Format.STREAM_OFF_MINOR] = (byte) ObserveProtocol.STREAM_MINOR_VERSION;
        return h;
    }

    /** Offset of the payload (the message type byte) in the frames this writer makes. */
    public int payloadOffset() {
        return header.headerBytes();
    }
}
