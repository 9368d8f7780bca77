package io.sonde.dashboard.websocket;

import java.io.IOException;

/** A peer broke the WebSocket protocol; {@link #closeCode()} is the status to close with (RFC 6455 section 7.4.1). */
public final class WebSocketException extends IOException {
    private final int closeCode;

    public WebSocketException(int closeCode, String message) {
        super(message);
        this.closeCode = closeCode;
    }

    /** 1002 protocol error, 1007 invalid text, 1009 message too big. */
    public int closeCode() {
        return closeCode;
    }
}
