package io.sonde.format.write;

import io.sonde.format.Format;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The 12-byte stream header that opens every file segment and every TCP connection. */
public final class StreamHeader {
    private StreamHeader() {}

    /** A fresh array holding the stream header of this format version. */
    public static byte[] bytes() {
        ByteBuffer b = ByteBuffer.allocate(Format.STREAM_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        put(b);
        return b.array();
    }

    /** Puts the stream header at the buffer's position. */
    public static void put(ByteBuffer out) {
        ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        b.put(Format.STREAM_MAGIC);
        b.putShort((short) Format.MAJOR_VERSION);
        b.putShort((short) Format.MINOR_VERSION);
        out.position(b.position());
    }
}
