package io.sonde.collector.receive;

/** Notified of connection events, from the connection threads. Implementations must be thread-safe. */
public interface ReceiverListener {
    /** A writer connected. */
    default void opened(String peer) {}

    /**
     * A connection ended without error (the writer closed it, or the receiver stopped).
     *
     * @param stream what it delivered, with the gaps in its sequence numbers and whether the trailer came
     */
    default void closed(String peer, StreamSummary stream) {}

    /**
     * A connection was closed because of bad input, an exceeded limit (frame size, agents, idle
     * time) or an I/O error. Whole frames received before remain stored.
     *
     * @param offset byte offset in the connection's stream where the problem was found
     * @param problem the problem in words (naming the limit when one was exceeded)
     * @param stream what it delivered before
     */
    default void failed(String peer, long offset, String problem, StreamSummary stream) {}

    /**
     * A connection was closed as soon as it was accepted, because max-connections were being
     * served; nothing of it was read.
     *
     * @param reason the limit, in words
     */
    default void refused(String peer, String reason) {}

    /**
     * Something about a connection worth telling that does not end it, e.g. frames an agent says
     * were acknowledged but the archive does not hold.
     */
    default void notice(String peer, String message) {}

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
            public void closed(String peer, StreamSummary stream) {
                log.log(stream.gapless() ? System.Logger.Level.INFO : System.Logger.Level.WARNING, "closed {0}: {1} -> {2}", peer,
                        stream.describe(), stream.target());
            }

            @Override
            public void failed(String peer, long offset, String problem, StreamSummary stream) {
                log.log(System.Logger.Level.WARNING, "failed {0}: offset {1}: {2} ({3}; whole frames kept in {4})", peer, offset, problem,
                        stream.describe(), stream.target());
            }

            @Override
            public void notice(String peer, String message) {
                log.log(System.Logger.Level.WARNING, "{0}: {1}", peer, message);
            }

            @Override
            public void refused(String peer, String reason) {
                log.log(System.Logger.Level.WARNING, "refused {0}: {1}", peer, reason);
            }
        };
    }
}
