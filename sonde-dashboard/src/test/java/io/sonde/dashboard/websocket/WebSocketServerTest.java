package io.sonde.dashboard.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server over real sockets on 127.0.0.1, with a handler that echoes text in upper case. */
class WebSocketServerTest {
    private final BlockingQueue<String> closes = new LinkedBlockingQueue<>();
    private WebSocketServer server;

    @BeforeEach
    void start() throws IOException {
        server = WebSocketServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), "/live",
                r -> r.header("Origin") == null || r.header("Origin").equals("http://127.0.0.1:1234"), new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocketConnection c) {
                        try {
                            c.sendText("hello " + c.path());
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }

                    @Override
                    public void onText(WebSocketConnection c, String message) {
                        try {
                            if (message.equals("bye")) c.close(1000, "as asked");
                            else c.sendText(message.toUpperCase(java.util.Locale.ROOT));
                        } catch (IOException e) {
                            throw new AssertionError(e);
                        }
                    }

                    @Override
                    public void onClose(WebSocketConnection c, int code, String reason) {
                        closes.add(code + " " + reason);
                    }
                });
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void echoesJoinsFragmentsAnswersPingsAndClosesCleanly() throws Exception {
        try (TestClient c = TestClient.open(server.port(), "/live?agent=a", "Origin: http://127.0.0.1:1234")) {
            assertThat(c.answer).startsWith("HTTP/1.1 101 ").contains("Sec-WebSocket-Accept: ");
            assertThat(c.readText()).isEqualTo("hello /live?agent=a");
            c.sendText("grüße");
            assertThat(c.readText()).isEqualTo("GRÜSSE");
            // a fragmented message with a ping between its fragments (control frames may interleave)
            c.send(new WebSocketFrame(false, WebSocketFrame.TEXT, "ab".getBytes(StandardCharsets.UTF_8)));
            c.send(new WebSocketFrame(true, WebSocketFrame.PING, "p1".getBytes(StandardCharsets.UTF_8)));
            c.send(new WebSocketFrame(true, WebSocketFrame.CONTINUATION, "cd".getBytes(StandardCharsets.UTF_8)));
            assertThat(c.read()).isEqualTo(new WebSocketFrame(true, WebSocketFrame.PONG, "p1".getBytes(StandardCharsets.UTF_8)));
            assertThat(c.readText()).isEqualTo("ABCD");
            // the client closes: the server answers with the same code and the handler hears it
            c.send(new WebSocketFrame(true, WebSocketFrame.CLOSE, new byte[] {0x03, (byte) 0xE8, 'o', 'k'}));
            WebSocketFrame close = c.read();
            assertThat(close.opcode()).isEqualTo(WebSocketFrame.CLOSE);
            assertThat(close.payload()).startsWith((byte) 0x03, (byte) 0xE8);
            assertThat(c.read()).as("the server closes the TCP connection after the handshake").isNull();
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1000 ok");
    }

    @Test
    void serverInitiatedCloseSendsItsCodeAndReason() throws Exception {
        try (TestClient c = TestClient.open(server.port(), "/live")) {
            c.readText();
            c.sendText("bye");
            WebSocketFrame close = c.read();
            assertThat(close.opcode()).isEqualTo(WebSocketFrame.CLOSE);
            assertThat(new String(close.payload(), 2, close.payload().length - 2, StandardCharsets.UTF_8)).isEqualTo("as asked");
            c.send(new WebSocketFrame(true, WebSocketFrame.CLOSE, new byte[] {0x03, (byte) 0xE8}));
            assertThat(c.read()).isNull();
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).startsWith("1000");
    }

    @Test
    void protocolErrorsCloseWithTheirCode() throws Exception {
        try (TestClient c = TestClient.open(server.port(), "/live")) {
            c.readText();
            c.sendRaw(new WebSocketFrame(true, WebSocketFrame.TEXT, "x".getBytes(StandardCharsets.UTF_8)).encode(null)); // not masked
            WebSocketFrame close = c.read();
            assertThat(close.opcode()).isEqualTo(WebSocketFrame.CLOSE);
            assertThat(((close.payload()[0] & 0xFF) << 8) | (close.payload()[1] & 0xFF)).isEqualTo(1002);
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).isEqualTo("1002 client frame not masked");
        try (TestClient c = TestClient.open(server.port(), "/live")) {
            c.readText();
            c.send(new WebSocketFrame(true, WebSocketFrame.TEXT, new byte[] {(byte) 0xC3, 0x28})); // invalid UTF-8
            WebSocketFrame close = c.read();
            assertThat(((close.payload()[0] & 0xFF) << 8) | (close.payload()[1] & 0xFF)).isEqualTo(1007);
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).startsWith("1007");
        try (TestClient c = TestClient.open(server.port(), "/live")) {
            c.readText();
            c.send(new WebSocketFrame(true, WebSocketFrame.CONTINUATION, new byte[] {'x'}));
            WebSocketFrame close = c.read();
            assertThat(((close.payload()[0] & 0xFF) << 8) | (close.payload()[1] & 0xFF)).isEqualTo(1002);
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).contains("continuation frame without a message");
    }

    @Test
    void refusesOtherPathsAndForeignOrigins() throws Exception {
        try (TestClient c = TestClient.open(server.port(), "/other")) {
            assertThat(c.answer).startsWith("HTTP/1.1 404 ");
            assertThat(c.rest()).contains("no WebSocket at /other");
        }
        try (TestClient c = TestClient.open(server.port(), "/live", "Origin: http://evil.example")) {
            assertThat(c.answer).startsWith("HTTP/1.1 403 ");
            assertThat(c.rest()).contains("origin http://evil.example may not open this WebSocket");
        }
        assertThat(closes).as("refused upgrades never reach the handler").isEmpty();
    }

    @Test
    void closingTheServerClosesItsConnections() throws Exception {
        try (TestClient c = TestClient.open(server.port(), "/live")) {
            c.readText();
            server.close();
            WebSocketFrame f = c.read();
            assertThat(f == null || f.opcode() == WebSocketFrame.CLOSE).as("close frame or end of stream, got %s", f).isTrue();
        }
        assertThat(closes.poll(10, TimeUnit.SECONDS)).isNotNull();
    }
}
