package io.sonde.dashboard.websocket;

/** What a {@link WebSocketServer} calls for each connection, on that connection's reader thread. */
public interface WebSocketHandler {
    /** The handshake succeeded; {@code c} may be written to from now on, from any thread. */
    void onOpen(WebSocketConnection c);

    /** A whole text message arrived (fragments joined, UTF-8 checked). */
    void onText(WebSocketConnection c, String message);

    /** The connection ended (close frame, broken stream or protocol error); called once. */
    void onClose(WebSocketConnection c, int code, String reason);
}
