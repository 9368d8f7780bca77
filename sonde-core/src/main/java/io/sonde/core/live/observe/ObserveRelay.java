package io.sonde.core.live.observe;

import io.sonde.format.read.FrameInput;
import java.io.IOException;

/**
 * What an observe endpoint does with a RELAY opening (docs/observe-protocol.md): open a session at
 * another endpoint and pass the observer's frames to it and its frames back. The collector relays
 * to its agents this way. An endpoint started without one answers RELAY as any first message that
 * is not HELLO.
 */
public interface ObserveRelay {
    /**
     * Serves one relayed connection on its reader thread, after the endpoint checked the RELAY's
     * token and protocol version; the connection is closed when this returns. Must answer the
     * RELAY request: with {@link Session#error} or by forwarding the target's OK.
     */
    void relay(Session session) throws IOException;

    /** The observer's side of one relayed connection. */
    interface Session {
        /** The RELAY's request id (the target's answer to HELLO must carry it). */
        int request();

        /** The protocol version the observer named. */
        int version();

        /** The target the observer named. */
        String target();

        /** ip:port of the observer, for messages. */
        String peer();

        /** The observer's frames after the RELAY (envelope checked: magic, length, CRC). */
        FrameInput observerFrames();

        /** Sends an ERROR to the observer (request 0: why the connection ends now). */
        void error(int request, int code, String message);

        /** Sends one whole frame to the observer, unchanged, and flushes. */
        void forward(byte[] frame, int length) throws IOException;

        /** Closes the observer's connection (unblocks a read of {@link #observerFrames}). */
        void close();
    }
}
