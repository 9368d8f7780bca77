package io.sonde.dashboard.websocket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;

/** A bare WebSocket client for tests: raw handshake, masked frames out, frames in (10 s read timeout). */
public final class TestClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final SplittableRandom random = new SplittableRandom(42);
    /** The server's answer to the upgrade request, head only. */
    public final String answer;

    private TestClient(Socket socket, String answer) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.answer = answer;
    }

    /** Connects and sends an upgrade request for {@code path} with these extra header lines. */
    public static TestClient open(int port, String path, String... headers) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(new byte[16]) + "\r\nSec-WebSocket-Version: 13\r\n");
        for (String h : headers) req.append(h).append("\r\n");
        s.getOutputStream().write(req.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) break;
            head.write(b);
        }
        return new TestClient(s, head.toString(StandardCharsets.ISO_8859_1));
    }

    /** Waits up to {@code millis} for each read from now on (10 s by default). */
    public TestClient readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
        return this;
    }

    public void send(WebSocketFrame f) throws IOException {
        byte[] key = new byte[4];
        random.nextBytes(key);
        out.write(f.encode(key));
        out.flush();
    }

    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    public void sendText(String s) throws IOException {
        send(new WebSocketFrame(true, WebSocketFrame.TEXT, s.getBytes(StandardCharsets.UTF_8)));
    }

    /** The next frame from the server (unmasked, as a server must send), null at the end of the stream. */
    public WebSocketFrame read() throws IOException {
        return WebSocketFrame.read(in, false, 1 << 24);
    }

    /** The next text message, skipping nothing: fails on another kind of frame. */
    public String readText() throws IOException {
        WebSocketFrame f = read();
        if (f == null || f.opcode() != WebSocketFrame.TEXT) throw new IOException("expected a text frame, got " + f);
        return new String(f.payload(), StandardCharsets.UTF_8);
    }

    /** The remaining bytes after the head (a refused upgrade's body). */
    public String rest() throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
