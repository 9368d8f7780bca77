package io.sonde.format.observe;

import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one live message from its frame, bounds-checked: a field that does not fit
 * in the payload is a {@link MalformedMessageException} naming the message and the payload offset.
 */
public final class PayloadReader {
    private final byte[] b;
    private final int start;
    private final int end;
    private int pos;
    private String message = "message";

    /** The payload {@code [start, end)} of a frame held in {@code bytes}. */
    public PayloadReader(byte[] bytes, int start, int end) {
        this.b = bytes;
        this.start = start;
        this.end = end;
        this.pos = start;
    }

    /** A reader over a copy of the whole payload, at its start (the frame buffer may be reused). */
    public PayloadReader copy() {
        return new PayloadReader(java.util.Arrays.copyOfRange(b, start, end), 0, end - start);
    }

    /** Reads the message type and names the message in later errors. */
    public int type() {
        int t = u8();
        message = ObserveProtocol.messageName(t);
        return t;
    }

    private void need(int n, String what) {
        if (end - pos < n) {
            throw new MalformedMessageException(message + ": payload ends at byte " + (end - start) + " where " + what
                    + " at byte " + (pos - start) + " needs " + n);
        }
    }

    public int u8() {
        need(1, "a u8");
        return b[pos++] & 0xFF;
    }

    public int u16() {
        need(2, "a u16");
        int v = (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    public int u32() {
        need(4, "a u32");
        int v = (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8 | (b[pos + 2] & 0xFF) << 16 | (b[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    public long i64() {
        need(8, "an i64");
        long lo = u32() & 0xFFFFFFFFL;
        long hi = u32() & 0xFFFFFFFFL;
        return lo | hi << 32;
    }

    public double f64() {
        return Double.longBitsToDouble(i64());
    }

    public String str() {
        int n = u16();
        need(n, "a string of " + n + " bytes");
        String s = new String(b, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    /** Whether bytes remain after the fields read so far (optional trailing fields of a later version). */
    public boolean hasMore() {
        return pos < end;
    }

    /** Checks that the payload ends here (extra bytes are an error: they would be silently ignored). */
    public void end() {
        if (pos != end) {
            throw new MalformedMessageException(message + ": " + (end - pos) + " unexpected bytes after the last field at byte "
                    + (pos - start));
        }
    }
}
