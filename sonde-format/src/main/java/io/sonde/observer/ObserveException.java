package io.sonde.observer;

import java.io.IOException;

/** An ERROR answer of the endpoint (code from {@code ObserveProtocol.ERR_*}, message) or a failed exchange. */
public final class ObserveException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public ObserveException(int code, String message) {
        super(message);
        this.code = code;
    }

    /** The protocol error code, or 0 when the connection failed. */
    public int code() {
        return code;
    }
}
