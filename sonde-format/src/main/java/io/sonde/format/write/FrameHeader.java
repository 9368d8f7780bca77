package io.sonde.format.write;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The per-agent constant part of every frame header (agent id, process id, host name) and the
 * operations that open and seal a frame inside a reusable buffer.
 *
 * <p>A frame is built in two steps: {@link #open} writes the header with the constant fields and
 * leaves the buffer positioned at the payload; the caller appends the payload; {@link #seal} then
 * fills in length, sequence number, wall and monotonic time and finally the CRC-32C. Sealing is
 * separate so that the sequence number can be assigned at the moment the frame is emitted, which
 * keeps sequence numbers in stream order even when a writer inserts frames of its own (registry
 * frame of a new segment, SEGMENT_END) or re-sends a frame on a new connection.
 */
public final class FrameHeader {
    private final long agentMsb;
    private final long agentLsb;
    private final int pid;
    private final byte[] host;
    private final int headerBytes;
    private final CRC32C crc = new CRC32C();

    /**
     * @param agentId the agent's UUID
     * @param pid process id (stored as u32)
     * @param hostName host name; truncated to at most 255 bytes of UTF-8 so that headers stay small
     */
    public FrameHeader(UUID agentId, long pid, String hostName) {
        this.agentMsb = agentId.getMostSignificantBits();
        this.agentLsb = agentId.getLeastSignificantBits();
        this.pid = (int) pid;
        this.host = truncateUtf8(hostName, 255);
        this.headerBytes = Format.FRAME_FIXED_HEADER_BYTES + host.length;
    }

    /** Header length H of the frames this header writes (62 + host name bytes). */
    public int headerBytes() {
        return headerBytes;
    }

    /**
     * Clears {@code buf}, writes a frame header of the given type (length, sequence, times and
     * CRC still zero) and leaves the position at the payload start.
     */
    public void open(ByteBuffer buf, byte frameType) {
        buf.clear();
        buf.order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(Format.FRAME_MAGIC);
        buf.putInt(0); // length, set by seal
        buf.putInt(0); // crc, set by seal
        buf.put(frameType);
        buf.put((byte) 0);
        buf.putShort((short) headerBytes);
        buf.putLong(agentMsb);
        buf.putLong(agentLsb);
        buf.putLong(0L); // sequence
        buf.putLong(0L); // wall
        buf.putLong(0L); // mono
        buf.putInt(pid);
        buf.putShort((short) host.length);
        buf.put(host);
    }

    /**
     * Completes the frame that occupies {@code [0, buf.position())}: writes its length, sequence
     * number and times, then the CRC-32C of bytes [12, length). Afterwards the buffer is flipped
     * (position 0, limit = length), ready to be written out.
     */
    public void seal(ByteBuffer buf, long sequence, long wallNanos, long monoNanos) {
        int length = buf.position();
        buf.putInt(Format.FRAME_OFF_LENGTH, length);
        restamp(buf, length, sequence, wallNanos, monoNanos);
        buf.limit(length);
        buf.position(0);
    }

    /**
     * Gives an already sealed frame occupying {@code [0, limit)} a new sequence number and times and
     * recomputes its CRC (used when a frame is re-sent on a new connection). Position and limit are
     * left as they were.
     */
    public void reseal(ByteBuffer buf, long sequence, long wallNanos, long monoNanos) {
        int pos = buf.position();
        int length = buf.getInt(Format.FRAME_OFF_LENGTH);
        restamp(buf, length, sequence, wallNanos, monoNanos);
        buf.position(pos);
    }

    private void restamp(ByteBuffer buf, int length, long sequence, long wallNanos, long monoNanos) {
        buf.putLong(Format.FRAME_OFF_SEQUENCE, sequence);
        buf.putLong(Format.FRAME_OFF_WALL_NANOS, wallNanos);
        buf.putLong(Format.FRAME_OFF_MONO_NANOS, monoNanos);
        // CRC over [12, length) using the buffer itself (no duplicate: no allocation per frame)
        int pos = buf.position();
        int lim = buf.limit();
        buf.limit(length).position(Format.FRAME_OFF_TYPE);
        crc.reset();
        crc.update(buf);
        buf.limit(lim).position(pos);
        buf.putInt(Format.FRAME_OFF_CRC, (int) crc.getValue());
    }

    /** Appends a block header (thread id, length 0 for now) and returns its position for {@link #endBlock}. */
    public static int beginBlock(ByteBuffer buf, long threadId) {
        int at = buf.position();
        buf.putLong(threadId);
        buf.putInt(0);
        return at;
    }

    /** Sets the byte length of the block begun at {@code blockStart} to end at the current position. */
    public static void endBlock(ByteBuffer buf, int blockStart) {
        buf.putInt(blockStart + RecordLayout.Block.BYTE_LENGTH, buf.position() - blockStart - RecordLayout.Block.HEADER_LENGTH);
    }

    /** Appends a TRAILER payload. {@code drops[reason]} holds the count of each drop reason 1..4; zero counts are left out. */
    public static void putTrailer(ByteBuffer buf, long produced, long written, long[] drops) {
        buf.putLong(produced);
        buf.putLong(written);
        int n = 0;
        for (int r = 1; r < drops.length; r++) {
            if (drops[r] != 0) n++;
        }
        buf.putInt(n);
        for (int r = 1; r < drops.length; r++) {
            if (drops[r] != 0) {
                buf.put((byte) r);
                buf.putLong(drops[r]);
            }
        }
    }

    /** Appends a SEGMENT_END payload. */
    public static void putSegmentEnd(ByteBuffer buf, int nextSegmentIndex) {
        buf.putInt(nextSegmentIndex);
    }

    static byte[] truncateUtf8(String s, int maxBytes) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length <= maxBytes) return b;
        int end = maxBytes;
        // do not cut a multi-byte character: back up over continuation bytes
        while (end > 0 && (b[end] & 0xC0) == 0x80) end--;
        byte[] t = new byte[end];
        System.arraycopy(b, 0, t, 0, end);
        return t;
    }
}
