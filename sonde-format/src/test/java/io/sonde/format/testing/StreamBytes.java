package io.sonde.format.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Test-side, byte-level builder of whole Sonde streams (stream header + frames), written straight
 * from docs/format.md and independent of the production encoders. One instance = one stream (a
 * file segment or the bytes of one TCP connection) of one agent.
 */
public final class StreamBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final UUID agent;
    private final String host;
    private final int pid;
    private byte[] extraHeader = new byte[0];

    /** Starts a stream of format version 1.0 with the given frame-header identity. */
    public StreamBytes(UUID agent, String host, int pid) {
        this(agent, host, pid, 1, 0);
    }

    public StreamBytes(UUID agent, String host, int pid, int major, int minor) {
        this.agent = agent;
        this.host = host;
        this.pid = pid;
        out.writeBytes(streamHeader(major, minor));
    }

    /**
     * Extra header bytes after the host name in every following frame (header length grows by as
     * much), as a later minor version might add; readers must skip them by honouring H.
     */
    public StreamBytes extraHeader(byte[] bytes) {
        this.extraHeader = bytes.clone();
        return this;
    }

    /** The 12-byte stream header. */
    public static byte[] streamHeader(int major, int minor) {
        return new byte[] {
            (byte) 0x89, 'S', 'O', 'N', 'D', 'E', 0x0D, 0x0A,
            (byte) major, (byte) (major >>> 8), (byte) minor, (byte) (minor >>> 8)
        };
    }

    /** Appends a DATA frame; blocks are pairs (Long thread id, RecordBytes). */
    public StreamBytes data(long sequence, long wallNanos, long monoNanos, Object... blocks) {
        out.writeBytes(dataFrame(sequence, wallNanos, monoNanos, blocks));
        return this;
    }

    /** Appends a TRAILER frame; drops are pairs (Integer reason, Long count). */
    public StreamBytes trailer(long sequence, long wallNanos, long monoNanos, long produced, long written, Object... drops) {
        RecordBytes p = new RecordBytes().u64(produced).u64(written).u32(drops.length / 2);
        for (int i = 0; i < drops.length; i += 2) {
            p.u8(((Number) drops[i]).intValue()).u64(((Number) drops[i + 1]).longValue());
        }
        out.writeBytes(frame(2, sequence, wallNanos, monoNanos, p.toBytes()));
        return this;
    }

    /** Appends a SEGMENT_END frame naming the index of the next segment. */
    public StreamBytes segmentEnd(long sequence, long wallNanos, long monoNanos, int nextSegment) {
        out.writeBytes(frame(3, sequence, wallNanos, monoNanos, new RecordBytes().u32(nextSegment).toBytes()));
        return this;
    }

    /** Appends raw bytes (for malformed-input tests). */
    public StreamBytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    /** Encodes one DATA frame without appending it. */
    public byte[] dataFrame(long sequence, long wallNanos, long monoNanos, Object... blocks) {
        RecordBytes p = new RecordBytes();
        for (int i = 0; i < blocks.length; i += 2) {
            byte[] records = ((RecordBytes) blocks[i + 1]).toBytes();
            p.u64(((Number) blocks[i]).longValue()).u32(records.length).raw(records);
        }
        return frame(1, sequence, wallNanos, monoNanos, p.toBytes());
    }

    /** Encodes one frame of any type around the given payload, computing length and CRC. */
    public byte[] frame(int type, long sequence, long wallNanos, long monoNanos, byte[] payload) {
        byte[] hostBytes = host.getBytes(StandardCharsets.UTF_8);
        int headerLength = 62 + hostBytes.length + extraHeader.length;
        int length = headerLength + payload.length;
        RecordBytes f = new RecordBytes()
                .u32(0x46444E53).u32(length).u32(0) // CRC patched below
                .u8(type).u8(0).u16(headerLength)
                .u64(agent.getMostSignificantBits()).u64(agent.getLeastSignificantBits())
                .u64(sequence).u64(wallNanos).u64(monoNanos)
                .u32(pid).u16(hostBytes.length).raw(hostBytes).raw(extraHeader)
                .raw(payload);
        byte[] bytes = f.toBytes();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 12, length - 12);
        int c = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            bytes[8 + i] = (byte) (c >>> (8 * i));
        }
        return bytes;
    }

    public byte[] toBytes() {
        return out.toByteArray();
    }
}
