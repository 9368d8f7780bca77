package io.sonde.collector.receive;

import java.util.UUID;

/** Notified of connection events, from the connection threads. Implementations must be thread-safe. */
public interface ReceiverListener {
    /** A writer connected. */
    default void opened(String peer) {}

    /**
     * A connection ended without error (the writer closed it, or the receiver stopped).
     *
     * @param agentId null if the connection ended before its first frame
     * @param target where its frames went (null if none)
     */
    default void closed(String peer, UUID agentId, long frames, long bytes, String target) {}

    /**
     * A connection was closed because of bad input or an I/O error. Whole frames received before
     * remain stored.
     *
     * @param offset byte offset in the connection's stream where the problem was found
     * @param problem the problem in words
     */
    default void failed(String peer, long offset, String problem, UUID agentId, long frames, String target) {}

    /** A listener that does nothing. */
    static ReceiverListener none() {
        return new ReceiverListener() {};
    }

    /** A listener logging through {@link System.Logger} ("sonde.receiver"). */
    static ReceiverListener logging() {
        System.Logger log = System.getLogger("sonde.receiver");
        return new ReceiverListener() {
            @Override
            public void opened(String peer) {
                log.log(System.Logger.Level.INFO, "opened {0}", peer);
            }

            @Override
            public void closed(String peer, UUID agentId, long frames, long bytes, String target) {
                log.log(System.Logger.Level.INFO, "closed {0}: agent {1}, {2} frames, {3} bytes -> {4}", peer, agentId, frames, bytes, target);
            }

            @Override
            public void failed(String peer, long offset, String problem, UUID agentId, long frames, String target) {
                log.log(System.Logger.Level.WARNING, "failed {0}: offset {1}: {2} ({3} whole frames kept in {4})", peer, offset, problem, frames, target);
            }
        };
    }
}
