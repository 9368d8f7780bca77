package io.sonde.dashboard.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebSocketHandshakeTest {
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    private static WebSocketHandshake.Request read(String head) throws IOException {
        return WebSocketHandshake.read(new ByteArrayInputStream(head.getBytes(StandardCharsets.ISO_8859_1)));
    }

    private static String upgrade(String extra) {
        return "GET /live?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n" + extra + "\r\n";
    }

    /** RFC 6455 section 1.3's example. */
    @Test
    void acceptKeyIsTheRfcExample() {
        assertThat(WebSocketHandshake.acceptKey(KEY)).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    @Test
    void readsAValidUpgrade() throws IOException {
        WebSocketHandshake.Request r = read(upgrade("origin: http://127.0.0.1:8\r\n"));
        assertThat(r.path()).isEqualTo("/live?x=1");
        assertThat(r.header("Origin")).isEqualTo("http://127.0.0.1:8");
        assertThat(new String(WebSocketHandshake.accept(r), StandardCharsets.US_ASCII))
                .startsWith("HTTP/1.1 101 Switching Protocols\r\n").contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n").endsWith("\r\n\r\n");
    }

    @Test
    void refusesWhatIsNotAnUpgrade() {
        assertStatus(upgrade("").replace("GET", "POST"), 405, "a WebSocket opens with GET, not POST");
        assertStatus(upgrade("").replace("HTTP/1.1", "HTTP/1.0"), 400, "needs HTTP/1.1");
        assertStatus(upgrade("").replace("Upgrade: websocket", "Upgrade: h2c"), 400, "not a WebSocket upgrade");
        assertStatus(upgrade("").replace("keep-alive, Upgrade", "keep-alive"), 400, "Connection does not name Upgrade");
        assertStatus(upgrade("").replace("Version: 13", "Version: 8"), 426, "version 8 not supported");
        assertStatus(upgrade("").replace(KEY, "c2hvcnQ="), 400, "not 16 bytes");
        assertStatus(upgrade("").replace(KEY, "!!"), 400, "not 16 bytes");
        assertStatus("GET /\r\n\r\n", 400, "malformed request line");
        assertStatus(upgrade("no colon\r\n"), 400, "malformed header line");
        assertStatus("GET / HTTP/1.1\r\nX: " + "a".repeat(WebSocketHandshake.MAX_HEAD_BYTES) + "\r\n\r\n", 400, "longer than");
        assertThatThrownBy(() -> read("GET / HTTP/1.1\r\nHost: x\r\n")).isInstanceOf(java.io.EOFException.class);
        assertThat(new String(WebSocketHandshake.refuse(426, "v"), StandardCharsets.UTF_8)).startsWith("HTTP/1.1 426 Upgrade Required")
                .contains("Sec-WebSocket-Version: 13");
    }

    private static void assertStatus(String head, int status, String message) {
        assertThatThrownBy(() -> read(head)).isInstanceOf(WebSocketHandshake.Refused.class).hasMessageContaining(message)
                .extracting(e -> ((WebSocketHandshake.Refused) e).status()).isEqualTo(status);
    }
}
