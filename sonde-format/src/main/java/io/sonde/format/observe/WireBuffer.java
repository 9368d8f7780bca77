package io.sonde.format.observe;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A growable little-endian byte buffer with the encoding primitives of docs/format.md section 2
 * (u8 ... i64, f64, str). Not thread-safe; one per writer.
 */
public class WireBuffer {
    /** Longest {@code str}: its length is a u16. */
    public static final int MAX_STRING_BYTES = 65535;

    protected ByteBuffer buf;

    public WireBuffer(int initialCapacity) {
        buf = ByteBuffer.allocate(initialCapacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    protected final void ensure(int more) {
        if (buf.remaining() >= more) return;
        int need = buf.position() + more;
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(need, buf.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
        buf.flip();
        bigger.put(buf);
        buf = bigger;
    }

    public final WireBuffer u8(int v) {
        ensure(1);
        buf.put((byte) v);
        return this;
    }

    public final WireBuffer u16(int v) {
        ensure(2);
        buf.putShort((short) v);
        return this;
    }

    public final WireBuffer u32(int v) {
        ensure(4);
        buf.putInt(v);
        return this;
    }

    public final WireBuffer i64(long v) {
        ensure(8);
        buf.putLong(v);
        return this;
    }

    public final WireBuffer f64(double v) {
        return i64(Double.doubleToRawLongBits(v));
    }

    /** A {@code str}; longer values are truncated at a character boundary (docs/format.md section 2). */
    public final WireBuffer str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int n = b.length;
        if (n > MAX_STRING_BYTES) {
            n = MAX_STRING_BYTES;
            while (n > 0 && (b[n] & 0xC0) == 0x80) n--; // b[n] continues a character: cut before it
        }
        ensure(2 + n);
        buf.putShort((short) n);
        buf.put(b, 0, n);
        return this;
    }

    public final WireBuffer bytes(byte[] b) {
        ensure(b.length);
        buf.put(b);
        return this;
    }

    /** Bytes written so far. */
    public final int size() {
        return buf.position();
    }

    /** A copy of the bytes written so far. */
    public final byte[] toByteArray() {
        byte[] out = new byte[buf.position()];
        buf.duplicate().flip().get(out);
        return out;
    }
}
