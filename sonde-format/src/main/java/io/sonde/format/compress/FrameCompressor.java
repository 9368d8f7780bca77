package io.sonde.format.compress;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.CompressedPayload;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writer side of frame compression: turns an unsealed DATA frame into an unsealed COMPRESSED frame
 * with the same header (docs/format.md section 4.4). The caller seals whichever frame it gets back,
 * so sequence number, times and CRC are assigned as for any frame.
 *
 * <p>Not every frame is compressed: frames that carry definitions (their first block is the
 * registry block) stay DATA so that receivers find definitions without decompressing, and a frame
 * whose compressed form would not be smaller is written as it is. Allocation-free once its buffers
 * have grown to the largest frame seen. Not thread-safe: one per writer thread.
 */
public final class FrameCompressor {
    /** Payloads smaller than this are not worth the 6-byte header and the call. */
    private static final int MIN_PAYLOAD = 64;

    private final Lz4Block lz4 = new Lz4Block();
    private byte[] plain = new byte[0];
    private byte[] packed = new byte[0];
    private ByteBuffer out = ByteBuffer.allocateDirect(0);
    private long framesCompressed;
    private long bytesBefore;
    private long bytesAfter;

    /**
     * Compresses the unsealed frame occupying {@code frame[0, frame.position())}. Returns a buffer
     * owned by this compressor holding the COMPRESSED frame (position at its end, unsealed; valid
     * until the next call), or {@code frame} itself, unchanged, when it stays as it is.
     */
    public ByteBuffer compress(ByteBuffer frame) {
        int length = frame.position();
        int h = frame.getShort(Format.FRAME_OFF_HEADER_LENGTH) & 0xFFFF;
        int payload = length - h;
        if (frame.get(Format.FRAME_OFF_TYPE) != Format.FRAME_DATA || payload < MIN_PAYLOAD
                || frame.getLong(h) == Format.REGISTRY_THREAD_ID) {
            return frame;
        }
        if (plain.length < payload) {
            plain = new byte[payload];
            packed = new byte[Lz4Block.maxCompressedLength(payload)];
        }
        frame.get(h, plain, 0, payload);
        int packedLength = lz4.compress(plain, 0, payload, packed, 0);
        int total = h + CompressedPayload.HEADER_LENGTH + packedLength;
        if (total >= length) {
            return frame;
        }
        if (out.capacity() < total) {
            out = ByteBuffer.allocateDirect(Math.max(total, frame.capacity())).order(ByteOrder.LITTLE_ENDIAN);
        }
        out.clear();
        out.put(0, frame, 0, h);
        out.put(Format.FRAME_OFF_TYPE, Format.FRAME_COMPRESSED);
        out.position(h);
        out.put(Format.CODEC_LZ4);
        out.put(Format.FRAME_DATA);
        out.putInt(payload);
        out.put(packed, 0, packedLength);
        framesCompressed++;
        bytesBefore += length;
        bytesAfter += total;
        return out;
    }

    /** DATA frames turned into COMPRESSED frames so far. */
    public long framesCompressed() {
        return framesCompressed;
    }

    /** Total length of the frames compressed so far, before compression. */
    public long bytesBefore() {
        return bytesBefore;
    }

    /** Total length of the same frames after compression. */
    public long bytesAfter() {
        return bytesAfter;
    }
}
