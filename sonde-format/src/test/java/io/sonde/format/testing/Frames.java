package io.sonde.format.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** Test helpers to locate and patch frames inside stream bytes (for corruption tests). */
public final class Frames {
    private Frames() {}

    /** Offsets of the frames of a well-formed stream (after the 12-byte stream header). */
    public static List<Integer> offsets(byte[] stream) {
        List<Integer> list = new ArrayList<>();
        int p = 12;
        while (p + 8 <= stream.length) {
            list.add(p);
            int len = u32(stream, p + 4);
            if (len <= 0) {
                break;
            }
            p += len;
        }
        return list;
    }

    public static int u32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    public static void putU32(byte[] b, int off, int v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    /** Recomputes the CRC of the frame at offset (using its stored length). */
    public static void fixCrc(byte[] b, int frameOffset) {
        int len = u32(b, frameOffset + 4);
        if (len < 12 || (long) frameOffset + len > b.length) {
            return;
        }
        CRC32C crc = new CRC32C();
        crc.update(b, frameOffset + 12, len - 12);
        putU32(b, frameOffset + 8, (int) crc.getValue());
    }

    /**
     * The COMPRESSED frame (2.4) Sonde's {@link io.sonde.format.compress.FrameCompressor} makes of
     * a sealed DATA frame, sealed again (CRC); the frame itself if it stays uncompressed.
     */
    public static byte[] compressed(byte[] dataFrame) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(dataFrame.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        in.put(dataFrame);
        java.nio.ByteBuffer out = new io.sonde.format.compress.FrameCompressor().compress(in);
        byte[] b = new byte[out.position()];
        out.get(0, b);
        putU32(b, 4, b.length);
        fixCrc(b, 0);
        return b;
    }
}
