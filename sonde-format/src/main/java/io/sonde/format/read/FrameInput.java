package io.sonde.format.read;

import io.sonde.format.Format;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads the envelope of a Sonde stream from an {@link InputStream}: the stream header, then
 * whole frames, each checked for magic, length range, CRC-32C and header consistency, without
 * decoding any record (the "flat-rate envelope": a receiver can verify and store frames at the
 * cost of a CRC). Used by the record reader for files and by the collector for TCP connections.
 *
 * <p>One reusable buffer holds the current frame. It grows only as bytes actually arrive (at most
 * doubling), so a corrupt length field cannot make it allocate more than twice what the input
 * really holds, and never more than the frame limit ({@link Format#MAX_FRAME_BYTES}, or a smaller
 * limit the caller sets, e.g. a receiver bounding each connection's memory).
 *
 * <p>Reads are resumable: if the underlying stream throws an {@link java.io.InterruptedIOException}
 * (a socket read timeout), the bytes read so far are kept and the next call continues the same
 * stream header or frame.
 */
public final class FrameInput implements Closeable {
    private static final int INITIAL_BUFFER = 64 * 1024;

    private final InputStream in;
    private final String source;
    private final FrameHeader header;
    /** Largest frame accepted; a longer declared length is rejected before any of its bytes are read. */
    private final int maxFrameBytes;
    private byte[] buf;
    /** Bytes of the current unit (stream header or frame) held in buf. */
    private int filled;
    /** Absolute offset of the current unit's first byte. */
    private long unitStart;
    private boolean streamHeaderRead;
    private int major = -1;
    private int minor = -1;
    /** Length of the current frame once its first 12 bytes passed the checks, else -1. */
    private int frameLength = -1;
    /** True while buf holds a complete, verified frame (until the next call). */
    private boolean frameReady;
    private final CRC32C crc = new CRC32C();
    /** True when {@link #skipToNextFrame()} left a verified frame at buf[0] for the next call. */
    private boolean verifiedAhead;
    /** The problem found by the last {@link #examine()} that returned BAD. */
    private FormatException problem;

    /**
     * @param in the stream, positioned at the stream header
     * @param source what to call the input in error messages (a path, or ip:port of a peer)
     */
    public FrameInput(InputStream in, String source) {
        this(in, source, Format.MAX_FRAME_BYTES);
    }

    /**
     * @param in the stream, positioned at the stream header
     * @param source what to call the input in error messages (a path, or ip:port of a peer)
     * @param maxFrameBytes the largest frame accepted, between {@link Format#FRAME_FIXED_HEADER_BYTES}
     *     and {@link Format#MAX_FRAME_BYTES}; a frame declaring more is a {@link FormatProblem#BAD_FRAME_LENGTH}
     *     and the buffer never grows beyond this
     */
    public FrameInput(InputStream in, String source, int maxFrameBytes) {
        if (maxFrameBytes < Format.FRAME_FIXED_HEADER_BYTES || maxFrameBytes > Format.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + " outside [" + Format.FRAME_FIXED_HEADER_BYTES + ", "
                    + Format.MAX_FRAME_BYTES + "]");
        }
        this.in = in;
        this.source = source;
        this.header = new FrameHeader();
        this.maxFrameBytes = maxFrameBytes;
        this.buf = new byte[Math.min(INITIAL_BUFFER, maxFrameBytes)];
    }

    /**
     * Reads and checks the 12-byte stream header (magic, major version). Returns false if the input
     * ended before its first byte; throws {@link FormatException} on a bad header or on an input
     * that ends inside it. The magic is checked byte by byte as bytes arrive, so garbage is
     * recognised at once even if the sender then goes quiet.
     */
    public boolean readStreamHeader() throws IOException {
        if (streamHeaderRead) {
            throw new IllegalStateException("stream header already read");
        }
        int magicLength = Format.STREAM_MAGIC.length;
        while (filled < Format.STREAM_HEADER_BYTES) {
            int n = in.read(buf, filled, Format.STREAM_HEADER_BYTES - filled);
            if (n < 0) {
                if (filled == 0) {
                    return false;
                }
                throw error(unitStart + filled, FormatProblem.TRUNCATED,
                        "input ended inside the 12-byte stream header after " + filled + " bytes");
            }
            for (int i = filled; i < Math.min(filled + n, magicLength); i++) {
                if (buf[i] != Format.STREAM_MAGIC[i]) {
                    throw error(unitStart + i, FormatProblem.BAD_MAGIC,
                            "not a Sonde stream: bad magic byte 0x" + hex2(buf[i]) + " (expected 0x" + hex2(Format.STREAM_MAGIC[i]) + ")");
                }
            }
            filled += n;
        }
        major = LittleEndian.u16(buf, Format.STREAM_OFF_MAJOR);
        minor = LittleEndian.u16(buf, Format.STREAM_OFF_MINOR);
        if (major < Format.OLDEST_MAJOR_VERSION || major > Format.MAJOR_VERSION) {
            throw error(unitStart + Format.STREAM_OFF_MAJOR, FormatProblem.UNSUPPORTED_VERSION,
                    "unsupported format version " + major + "." + minor + " (this reader reads major versions "
                            + Format.OLDEST_MAJOR_VERSION + " to " + Format.MAJOR_VERSION + ")");
        }
        header.streamMajor(major);
        streamHeaderRead = true;
        unitStart += Format.STREAM_HEADER_BYTES;
        filled = 0;
        return true;
    }

    /**
     * Reads the next whole frame and checks it. Returns false at a clean end of input (exactly at a
     * frame boundary). Throws {@link FormatException} for a bad frame or an input that ends inside
     * a frame; the offset is then the absolute offset of the problem. After such an exception the
     * caller may stop, or call {@link #skipToNextFrame()} and go on.
     */
    public boolean nextFrame() throws IOException {
        if (!streamHeaderRead) {
            throw new IllegalStateException("read the stream header first");
        }
        if (frameReady) {
            consume(frameLength);
            frameLength = -1;
            frameReady = false;
        }
        if (verifiedAhead) {
            // skipToNextFrame() found and checked this frame already
            verifiedAhead = false;
            return ready();
        }
        int outcome = examine();
        if (outcome == END) {
            return endOfInput();
        }
        if (outcome == BAD) {
            throw problem;
        }
        return ready();
    }

    private boolean ready() {
        frameReady = true;
        header.bind(buf, frameLength, unitStart);
        return true;
    }

    /**
     * Resynchronises after {@link #nextFrame()} threw for a damaged frame: scans forward from the
     * byte after the damaged frame's start for the next offset where a whole valid frame begins
     * (frame magic, length in range, consistent header, known type, matching CRC-32C), which the
     * next {@link #nextFrame()} then returns. If there is none, the rest of the input is skipped and
     * the next {@link #nextFrame()} returns false. A false frame magic in a payload is rejected by
     * the same checks, so a frame is only accepted when its CRC matches.
     *
     * <p>Memory stays bounded as in {@link #nextFrame()}: the buffer holds at most one candidate
     * frame (at most the frame limit) plus what one read returns. Not resumable after a read
     * timeout (files only; the receiver closes a damaged connection instead).
     *
     * @return the absolute offset of the next valid frame, or of the end of the input
     */
    public long skipToNextFrame() throws IOException {
        if (!streamHeaderRead || frameReady || verifiedAhead) {
            throw new IllegalStateException("skipToNextFrame() follows a failed nextFrame()");
        }
        int from = 1;
        while (true) {
            frameLength = -1;
            int at = indexOfFrameMagic(from);
            if (at < 0) {
                // keep the last 3 bytes: a magic may straddle this read and the next
                consume(Math.max(Math.min(from, filled), filled - 3));
                if (!readMore()) {
                    consume(filled);
                    return unitStart;
                }
                from = 0;
                continue;
            }
            consume(at);
            if (examine() == OK) {
                verifiedAhead = true;
                return unitStart;
            }
            from = 1;
        }
    }

    /** Index of the first frame magic in buf[from, filled), or -1. */
    private int indexOfFrameMagic(int from) {
        for (int i = from; i + 4 <= filled; i++) {
            if (LittleEndian.i32(buf, i) == Format.FRAME_MAGIC) {
                return i;
            }
        }
        return -1;
    }

    /** Reads whatever the input gives next into the buffer (at least one byte); false at its end. */
    private boolean readMore() throws IOException {
        if (filled == buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(maxFrameBytes + 3L, 2L * buf.length));
        }
        int n = in.read(buf, filled, buf.length - filled);
        if (n < 0) {
            return false;
        }
        filled += n;
        return true;
    }

    /** Drops the first n bytes of the buffer (a frame returned, or bytes skipped); keeps any read beyond. */
    private void consume(int n) {
        if (n < filled) {
            System.arraycopy(buf, n, buf, 0, filled - n);
        }
        filled -= n;
        unitStart += n;
    }

    private static final int OK = 0;
    private static final int END = 1;
    private static final int BAD = 2;

    /**
     * Checks the frame starting at buf[0], reading its bytes as needed: OK if it is whole and valid
     * (frameLength is then its length), END if the input ended first, BAD with {@link #problem} set.
     */
    private int examine() throws IOException {
        if (frameLength < 0) {
            if (!fill(4)) {
                return END;
            }
            int magic = LittleEndian.i32(buf, Format.FRAME_OFF_MAGIC);
            if (magic != Format.FRAME_MAGIC) {
                return bad(unitStart, FormatProblem.BAD_FRAME_MAGIC, "expected a frame (magic 'SNDF'), found bytes " + hexBytes(buf, 0, 4));
            }
            if (!fill(Format.FRAME_OFF_TYPE)) {
                return END;
            }
            long length = LittleEndian.u32(buf, Format.FRAME_OFF_LENGTH);
            if (length < Format.FRAME_FIXED_HEADER_BYTES || length > maxFrameBytes) {
                return bad(unitStart + Format.FRAME_OFF_LENGTH, FormatProblem.BAD_FRAME_LENGTH,
                        "frame length " + length + " out of range [" + Format.FRAME_FIXED_HEADER_BYTES + ", " + maxFrameBytes + "]"
                                + (maxFrameBytes < Format.MAX_FRAME_BYTES && length <= Format.MAX_FRAME_BYTES
                                        ? " (this input's limit; the format allows up to " + Format.MAX_FRAME_BYTES + ")"
                                        : ""));
            }
            frameLength = (int) length;
        }
        if (!fill(frameLength)) {
            return END;
        }
        int stored = LittleEndian.i32(buf, Format.FRAME_OFF_CRC);
        crc.reset();
        crc.update(buf, Format.FRAME_OFF_TYPE, frameLength - Format.FRAME_OFF_TYPE);
        int computed = (int) crc.getValue();
        if (stored != computed) {
            return bad(unitStart, FormatProblem.CRC_MISMATCH,
                    "CRC mismatch in frame of " + frameLength + " bytes (stored 0x" + Integer.toHexString(stored)
                            + ", computed 0x" + Integer.toHexString(computed) + ")");
        }
        // Past the CRC the header is what the writer wrote; inconsistencies are writer bugs, but
        // must still not make readers index outside the frame.
        int headerLength = LittleEndian.u16(buf, Format.FRAME_OFF_HEADER_LENGTH);
        int hostLength = LittleEndian.u16(buf, Format.FRAME_OFF_HOST_LENGTH);
        if (Format.FRAME_FIXED_HEADER_BYTES + hostLength > headerLength || headerLength > frameLength) {
            return bad(unitStart + Format.FRAME_OFF_HEADER_LENGTH, FormatProblem.BAD_FRAME_HEADER,
                    "frame header length " + headerLength + " inconsistent with host name length " + hostLength
                            + " and frame length " + frameLength);
        }
        int type = buf[Format.FRAME_OFF_TYPE];
        boolean known = type == Format.FRAME_DATA || type == Format.FRAME_TRAILER || type == Format.FRAME_SEGMENT_END
                || type == Format.FRAME_COMPRESSED; // 2.4, allowed in every 2.x stream (docs/format.md section 4.4)
        if (!known && minor <= Format.MINOR_VERSION) {
            return bad(unitStart + Format.FRAME_OFF_TYPE, FormatProblem.UNKNOWN_FRAME_TYPE,
                    "unknown frame type " + (type & 0xFF) + " in a version " + major + "." + minor + " stream");
        }
        return OK;
    }

    private int bad(long offset, FormatProblem kind, String detail) {
        problem = error(offset, kind, detail);
        return BAD;
    }

    /** Clean end only at a frame boundary; inside a frame it is truncation. */
    private boolean endOfInput() throws FormatException {
        if (filled == 0) {
            return false;
        }
        String expected = frameLength > 0 ? "declares " + frameLength + " bytes" : "needs at least 12 header bytes";
        throw error(unitStart + filled, FormatProblem.TRUNCATED,
                "input ended inside the frame at offset " + unitStart + ", which " + expected + "; only " + filled + " available");
    }

    /** Reads until the current unit holds target bytes; false on end of input. */
    private boolean fill(int target) throws IOException {
        while (filled < target) {
            if (filled == buf.length) {
                byte[] bigger = new byte[(int) Math.min(target, 2L * buf.length)];
                System.arraycopy(buf, 0, bigger, 0, filled);
                buf = bigger;
            }
            // Never read past the current unit: the next frame's bytes stay in the stream.
            int n = in.read(buf, filled, Math.min(buf.length, target) - filled);
            if (n < 0) {
                return false;
            }
            filled += n;
        }
        return true;
    }

    private FormatException error(long offset, FormatProblem problem, String detail) {
        return new FormatException(source, offset, problem, detail);
    }

    /** The header of the frame returned by the last successful {@link #nextFrame()}. */
    public FrameHeader header() {
        if (!frameReady) {
            throw new IllegalStateException("no current frame");
        }
        return header;
    }

    /** The buffer holding the current frame in bytes [0, frameLength()); reused by the next call. */
    public byte[] frameBytes() {
        return buf;
    }

    /** Length of the current frame. */
    public int frameLength() {
        return frameReady ? frameLength : -1;
    }

    /** Absolute offset of the current frame (or of the frame being read, after an error). */
    public long frameOffset() {
        return unitStart;
    }

    /** Absolute offset just past the last whole unit (stream header or frame) returned. */
    public long endOfLastFrame() {
        return frameReady ? unitStart + frameLength : unitStart;
    }

    /** True if bytes of an incomplete frame are held (e.g. after a read timeout). */
    public boolean midFrame() {
        return !frameReady && filled > 0;
    }

    /** Bytes of the incomplete unit held (0 at a boundary). */
    public int partialBytes() {
        return frameReady ? 0 : filled;
    }

    /** The 12 bytes of the stream header as read (valid after {@link #readStreamHeader()}). */
    public byte[] streamHeaderBytes() {
        byte[] h = Format.STREAM_MAGIC.clone();
        byte[] full = new byte[Format.STREAM_HEADER_BYTES];
        System.arraycopy(h, 0, full, 0, h.length);
        full[Format.STREAM_OFF_MAJOR] = (byte) major;
        full[Format.STREAM_OFF_MAJOR + 1] = (byte) (major >>> 8);
        full[Format.STREAM_OFF_MINOR] = (byte) minor;
        full[Format.STREAM_OFF_MINOR + 1] = (byte) (minor >>> 8);
        return full;
    }

    public int majorVersion() {
        return major;
    }

    public int minorVersion() {
        return minor;
    }

    public String source() {
        return source;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private static String hex2(byte b) {
        return String.format("%02x", b & 0xFF);
    }

    static String hexBytes(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < len; i++) {
            if (i > 0) {
                s.append(' ');
            }
            s.append(hex2(b[off + i]));
        }
        return s.toString();
    }
}
