package io.sonde.dashboard.websocket;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The opening handshake's server side (RFC 6455 section 4.2): reads the client's HTTP upgrade
 * request and checks it; {@link #acceptKey} computes the answer's {@code Sec-WebSocket-Accept}.
 */
public final class WebSocketHandshake {
    /** The GUID every server appends to the client's key (section 1.3). */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** An upgrade request is small; a longer head is refused rather than buffered. */
    static final int MAX_HEAD_BYTES = 16 * 1024;

    private WebSocketHandshake() {}

    /**
     * A checked upgrade request.
     *
     * @param path    the request target (path and query)
     * @param headers header names in lower case, values trimmed (a repeated header's values joined by ", ")
     */
    public record Request(String path, Map<String, String> headers) {
        /** A header's value, by its name in any case; null when absent. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A request that is not a valid upgrade: the HTTP status to answer with and why. */
    public static final class Refused extends IOException {
        private final int status;

        public Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /**
     * Reads and checks an upgrade request: {@code GET}, HTTP/1.1, {@code Upgrade: websocket},
     * {@code Connection} naming {@code Upgrade}, {@code Sec-WebSocket-Version: 13} and a key of
     * 16 bytes in base64.
     *
     * @throws Refused for a request that is not one (status 400, 405, or 426 for another version)
     * @throws EOFException when the stream ends before the head does
     */
    public static Request read(InputStream in) throws IOException {
        String head = readHead(in);
        String[] lines = head.split("\r\n");
        String[] requestLine = lines[0].split(" ");
        if (requestLine.length != 3 || !requestLine[2].startsWith("HTTP/")) throw new Refused(400, "malformed request line: " + lines[0]);
        if (!requestLine[0].equals("GET")) throw new Refused(405, "a WebSocket opens with GET, not " + requestLine[0]);
        if (!requestLine[2].equals("HTTP/1.1")) throw new Refused(400, "a WebSocket needs HTTP/1.1, not " + requestLine[2]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) throw new Refused(400, "malformed header line: " + lines[i]);
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            headers.merge(name, value, (a, b) -> a + ", " + b);
        }
        Request r = new Request(requestLine[1], headers);
        if (!hasToken(r.header("Upgrade"), "websocket")) throw new Refused(400, "not a WebSocket upgrade (Upgrade: " + r.header("Upgrade") + ")");
        if (!hasToken(r.header("Connection"), "upgrade")) throw new Refused(400, "Connection does not name Upgrade (" + r.header("Connection") + ")");
        if (!"13".equals(r.header("Sec-WebSocket-Version"))) {
            throw new Refused(426, "WebSocket version " + r.header("Sec-WebSocket-Version") + " not supported (13 is)");
        }
        String key = r.header("Sec-WebSocket-Key");
        byte[] decoded;
        try {
            decoded = key == null ? null : Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            decoded = null;
        }
        if (decoded == null || decoded.length != 16) throw new Refused(400, "Sec-WebSocket-Key is not 16 bytes in base64: " + key);
        return r;
    }

    /** {@code Sec-WebSocket-Accept} for a client's key: base64 of SHA-1 over the key and the GUID. */
    public static String acceptKey(String clientKey) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return Base64.getEncoder().encodeToString(sha1.digest((clientKey + GUID).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }

    /** The 101 answer that opens the connection. */
    public static byte[] accept(Request r) {
        return ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                + acceptKey(r.header("Sec-WebSocket-Key")) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** A plain-text HTTP error answer; 426 also names the version spoken. */
    public static byte[] refuse(int status, String message) {
        byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
        String reason = switch (status) {
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 426 -> "Upgrade Required";
            default -> "Bad Request";
        };
        return ("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + body.length
                + (status == 426 ? "\r\nSec-WebSocket-Version: 13" : "") + "\r\nConnection: close\r\n\r\n" + new String(body, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static boolean hasToken(String header, String token) {
        if (header == null) return false;
        for (String t : header.split(",")) if (t.trim().equalsIgnoreCase(token)) return true;
        return false;
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0; // how much of CR LF CR LF has been seen
        while (matched < 4) {
            int b = in.read();
            if (b < 0) throw new EOFException("connection closed inside the upgrade request");
            head.write(b);
            if (head.size() > MAX_HEAD_BYTES) throw new Refused(400, "request head longer than " + MAX_HEAD_BYTES + " bytes");
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String s = head.toString(StandardCharsets.ISO_8859_1);
        return s.substring(0, s.length() - 4);
    }
}
