package io.sonde.dashboard.websocket;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * One WebSocket frame (RFC 6455 section 5.2): FIN bit, opcode, payload, and how it is written to
 * and read from a byte stream. The server writes unmasked frames and reads masked ones (clients
 * must mask, section 5.1); the codec itself encodes and decodes both, so tests can act as the client.
 *
 * @param fin     the last frame of a message
 * @param opcode  {@link #TEXT}, {@link #BINARY}, {@link #CONTINUATION}, {@link #CLOSE}, {@link #PING} or {@link #PONG}
 * @param payload the application data, unmasked (not copied)
 */
public record WebSocketFrame(boolean fin, int opcode, byte[] payload) {
    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int BINARY = 0x2;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;
    /** Control frames carry at most this many payload bytes and are never fragmented (section 5.5). */
    public static final int MAX_CONTROL_PAYLOAD = 125;

    public WebSocketFrame {
        Objects.requireNonNull(payload, "payload");
        if (opcode < 0 || opcode > 0xF) throw new IllegalArgumentException("opcode " + opcode + " is not 4 bits");
    }

    /** A control frame (close, ping, pong). */
    public boolean isControl() {
        return (opcode & 0x8) != 0;
    }

    /**
     * The frame's bytes: masked with {@code maskKey} (4 bytes) as a client sends it, or unmasked
     * (null) as a server does.
     */
    public byte[] encode(byte[] maskKey) {
        if (maskKey != null && maskKey.length != 4) throw new IllegalArgumentException("a masking key has 4 bytes, got " + maskKey.length);
        int n = payload.length;
        int lengthBytes = n <= 125 ? 0 : n <= 0xFFFF ? 2 : 8;
        int head = 2 + lengthBytes + (maskKey == null ? 0 : 4);
        byte[] out = new byte[head + n];
        out[0] = (byte) ((fin ? 0x80 : 0) | opcode);
        int mask = maskKey == null ? 0 : 0x80;
        int p = 2;
        if (lengthBytes == 0) {
            out[1] = (byte) (mask | n);
        } else if (lengthBytes == 2) {
            out[1] = (byte) (mask | 126);
            out[p++] = (byte) (n >>> 8);
            out[p++] = (byte) n;
        } else {
            out[1] = (byte) (mask | 127);
            for (int shift = 56; shift >= 0; shift -= 8) out[p++] = (byte) ((long) n >>> shift);
        }
        if (maskKey != null) {
            System.arraycopy(maskKey, 0, out, p, 4);
            p += 4;
        }
        for (int i = 0; i < n; i++) out[p + i] = maskKey == null ? payload[i] : (byte) (payload[i] ^ maskKey[i & 3]);
        return out;
    }

    /**
     * Reads one frame.
     *
     * @param requireMask   true on the server: an unmasked frame is a protocol error (section 5.1)
     * @param maxPayload    the largest payload accepted (a larger one is refused before it is read)
     * @return the frame with its payload unmasked, or null at a clean end of stream before a frame
     * @throws WebSocketException for a frame that breaks RFC 6455 (the message says which rule)
     * @throws EOFException if the stream ends inside a frame
     */
    public static WebSocketFrame read(InputStream in, boolean requireMask, int maxPayload) throws IOException {
        int b0 = in.read();
        if (b0 < 0) return null;
        int b1 = readByte(in);
        if ((b0 & 0x70) != 0) throw new WebSocketException(1002, "reserved bits set (no extension was negotiated)");
        boolean fin = (b0 & 0x80) != 0;
        int opcode = b0 & 0x0F;
        if ((opcode > BINARY && opcode < CLOSE) || opcode > PONG) throw new WebSocketException(1002, "unknown opcode " + opcode);
        boolean masked = (b1 & 0x80) != 0;
        if (requireMask && !masked) throw new WebSocketException(1002, "client frame not masked");
        long length = b1 & 0x7F;
        if (length == 126) {
            length = ((long) readByte(in) << 8) | readByte(in);
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | readByte(in);
            if (length < 0) throw new WebSocketException(1002, "payload length has its most significant bit set");
        }
        if ((opcode & 0x8) != 0) {
            if (!fin) throw new WebSocketException(1002, "fragmented control frame");
            if (length > MAX_CONTROL_PAYLOAD) throw new WebSocketException(1002, "control frame payload of " + length + " bytes (at most 125)");
        }
        if (length > maxPayload) throw new WebSocketException(1009, "frame of " + length + " bytes (at most " + maxPayload + ")");
        byte[] key = masked ? readFully(in, 4) : null;
        byte[] payload = readFully(in, (int) length);
        if (key != null) for (int i = 0; i < payload.length; i++) payload[i] ^= key[i & 3];
        return new WebSocketFrame(fin, opcode, payload);
    }

    private static int readByte(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) throw new EOFException("stream ended inside a WebSocket frame");
        return b;
    }

    private static byte[] readFully(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length != n) throw new EOFException("stream ended inside a WebSocket frame (" + b.length + " of " + n + " bytes)");
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WebSocketFrame f && f.fin == fin && f.opcode == opcode && Arrays.equals(f.payload, payload);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Boolean.hashCode(fin) + opcode) + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "WebSocketFrame[fin=" + fin + ", opcode=" + opcode + ", " + payload.length + " bytes]";
    }
}
