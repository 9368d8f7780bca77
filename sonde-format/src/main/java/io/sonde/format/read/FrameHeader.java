package io.sonde.format.read;

import io.sonde.format.Format;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A view of the header of the current frame (valid until the reader moves to another frame):
 * the node header every frame carries — agent id, host, process id, sequence number, and the
 * wall-clock and monotonic times of the frame's making.
 */
public final class FrameHeader {
    private byte[] b;
    private int length;
    private long offset;
    private String host;
    private int streamMajor = Format.MAJOR_VERSION;

    FrameHeader() {}

    void bind(byte[] bytes, int frameLength, long frameOffset) {
        this.b = bytes;
        this.length = frameLength;
        this.offset = frameOffset;
        this.host = null;
    }

    /** Sets the major version of the stream the frame belongs to (from its stream header). */
    void streamMajor(int major) {
        this.streamMajor = major;
    }

    /**
     * Major format version of the stream holding this frame (its stream header's); decides which
     * record types its blocks may hold (HANDOFF_START only from 2 on).
     */
    public int streamMajorVersion() {
        return streamMajor;
    }

    /** The bytes of the whole frame, [0, {@link #length()}). */
    byte[] bytes() {
        return b;
    }

    /** Frame type: {@link Format#FRAME_DATA}, {@link Format#FRAME_TRAILER} or {@link Format#FRAME_SEGMENT_END}. */
    public byte type() {
        return b[Format.FRAME_OFF_TYPE];
    }

    public int flags() {
        return LittleEndian.u8(b, Format.FRAME_OFF_FLAGS);
    }

    /** Offset of the payload within the frame. */
    public int headerLength() {
        return LittleEndian.u16(b, Format.FRAME_OFF_HEADER_LENGTH);
    }

    /** Whole frame length in bytes. */
    public int length() {
        return length;
    }

    /** Absolute byte offset of the frame in its file or connection. */
    public long offset() {
        return offset;
    }

    public long agentMostSignificantBits() {
        return LittleEndian.i64(b, Format.FRAME_OFF_AGENT_MSB);
    }

    public long agentLeastSignificantBits() {
        return LittleEndian.i64(b, Format.FRAME_OFF_AGENT_LSB);
    }

    public UUID agentId() {
        return new UUID(agentMostSignificantBits(), agentLeastSignificantBits());
    }

    /** Per-agent frame sequence number (unsigned; fits a long in practice). */
    public long sequence() {
        return LittleEndian.i64(b, Format.FRAME_OFF_SEQUENCE);
    }

    /** Wall-clock time of the frame's making, ns since the Unix epoch. */
    public long wallNanos() {
        return LittleEndian.i64(b, Format.FRAME_OFF_WALL_NANOS);
    }

    /** Monotonic time (the agent JVM's System.nanoTime()) at the same instant. */
    public long monoNanos() {
        return LittleEndian.i64(b, Format.FRAME_OFF_MONO_NANOS);
    }

    /** Converts a record time of this agent (monotonic ns) to wall-clock ns since the epoch. */
    public long toWallNanos(long monoTime) {
        return wallNanos() + (monoTime - monoNanos());
    }

    /** Process id (unsigned 32-bit, widened). */
    public long pid() {
        return LittleEndian.u32(b, Format.FRAME_OFF_PID);
    }

    public String host() {
        if (host == null) {
            int n = LittleEndian.u16(b, Format.FRAME_OFF_HOST_LENGTH);
            host = new String(b, Format.FRAME_OFF_HOST, n, StandardCharsets.UTF_8);
        }
        return host;
    }

    @Override
    public String toString() {
        return "frame seq " + sequence() + " type " + type() + " agent " + agentId() + " host " + host() + " pid " + pid()
                + " wall " + wallNanos() + " mono " + monoNanos() + " length " + length + " at offset " + offset;
    }
}
