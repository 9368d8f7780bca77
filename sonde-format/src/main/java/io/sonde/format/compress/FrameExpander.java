package io.sonde.format.compress;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.CompressedPayload;

/**
 * Reader side of frame compression: expands a COMPRESSED frame back into the DATA frame it was
 * made from (docs/format.md section 4.4), in a buffer reused from frame to frame. The expanded
 * frame has the COMPRESSED frame's header with type DATA and the expanded length; its CRC field
 * still holds the CRC of the compressed frame (which the caller checked on the way in). Not
 * thread-safe.
 */
public final class FrameExpander {
    /**
     * The most an LZ4 block expands: a match costs at least a token and a 2-byte offset, and every
     * further byte of its length extension adds at most 255 bytes of output; literals do not expand.
     */
    static final long MAX_EXPANSION = 255;
    private byte[] frame = new byte[0];

    /**
     * Expands the COMPRESSED frame in {@code b[0, length)} whose envelope (length, CRC, header
     * length) was checked. Returns the expanded frame's length; its bytes are {@link #bytes()}.
     *
     * @throws CorruptBlockException when the payload cannot be expanded; the position is an offset in the frame
     */
    public int expand(byte[] b, int length) throws CorruptBlockException {
        int h = (b[Format.FRAME_OFF_HEADER_LENGTH] & 0xFF) | (b[Format.FRAME_OFF_HEADER_LENGTH + 1] & 0xFF) << 8;
        if (length - h < CompressedPayload.HEADER_LENGTH) {
            throw new CorruptBlockException(h, "COMPRESSED payload of " + (length - h) + " bytes, needs at least "
                    + CompressedPayload.HEADER_LENGTH);
        }
        int codec = b[h + CompressedPayload.CODEC] & 0xFF;
        if (codec != Format.CODEC_LZ4) {
            throw new CorruptBlockException(h + CompressedPayload.CODEC, "unknown compression codec " + codec
                    + " (this reader knows " + Format.CODEC_LZ4 + ", LZ4)");
        }
        int type = b[h + CompressedPayload.FRAME_TYPE] & 0xFF;
        if (type != Format.FRAME_DATA) {
            throw new CorruptBlockException(h + CompressedPayload.FRAME_TYPE, "COMPRESSED frame holds frame type " + type
                    + "; only DATA (" + Format.FRAME_DATA + ") frames are compressed");
        }
        int at = h + CompressedPayload.ORIGINAL_LENGTH;
        long original = (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
        if (original > Format.MAX_FRAME_BYTES - h) {
            throw new CorruptBlockException(at, "expanded payload length " + original + " makes a frame longer than "
                    + Format.MAX_FRAME_BYTES + " bytes");
        }
        long packed = length - h - CompressedPayload.DATA;
        if (original > MAX_EXPANSION * packed) {
            // checked before allocating: a corrupt length must not make the reader allocate
            throw new CorruptBlockException(at, "expanded payload length " + original + " is more than LZ4 expands "
                    + packed + " compressed bytes to (at most " + MAX_EXPANSION + " times as many)");
        }
        int expandedLength = h + (int) original;
        if (frame.length < expandedLength) {
            frame = new byte[expandedLength];
        }
        int data = h + CompressedPayload.DATA;
        int n;
        try {
            n = Lz4Block.decompress(b, data, length - data, frame, h, (int) original);
        } catch (CorruptBlockException e) {
            throw new CorruptBlockException(data + e.position(), "corrupt LZ4 payload: " + e.detail());
        }
        if (n != original) {
            throw new CorruptBlockException(at, "LZ4 payload expands to " + n + " bytes, the frame declares " + original);
        }
        System.arraycopy(b, 0, frame, 0, h);
        frame[Format.FRAME_OFF_TYPE] = Format.FRAME_DATA;
        frame[Format.FRAME_OFF_LENGTH] = (byte) expandedLength;
        frame[Format.FRAME_OFF_LENGTH + 1] = (byte) (expandedLength >>> 8);
        frame[Format.FRAME_OFF_LENGTH + 2] = (byte) (expandedLength >>> 16);
        frame[Format.FRAME_OFF_LENGTH + 3] = (byte) (expandedLength >>> 24);
        return expandedLength;
    }

    /** The expanded frame of the last {@link #expand} call, [0, its length). */
    public byte[] bytes() {
        return frame;
    }
}
