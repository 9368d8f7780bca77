package io.sonde.collector.archive;

import java.io.IOException;
import java.util.UUID;

/**
 * Where a receiver hands the frames of its connections, undecoded: the data-handler seam of the
 * collector (archive today; live subscribers or exporters later). A handler opens one
 * {@link StreamSink} per connection, once the first frame has named the agent.
 */
public interface FrameHandler {
    /**
     * Starts a stream for one connection of an agent.
     *
     * @param agentId agent id from the first frame header
     * @param streamHeader the 12 stream-header bytes exactly as received
     * @param peer ip:port of the sending agent, for messages
     */
    StreamSink open(UUID agentId, byte[] streamHeader, String peer) throws IOException;

    /** The frames of one connection. Calls come from the connection's own thread only. */
    interface StreamSink {
        /** One whole frame, already checked (magic, length, CRC): bytes [0, length) of frame. */
        void frame(byte[] frame, int length) throws IOException;

        /**
         * Makes every frame passed so far durable (forced to disk), before the receiver acknowledges
         * them to the agent. Default: nothing to force.
         */
        default void force() throws IOException {}

        /**
         * The agent's HELLO announced its observe endpoint (format 2.3; the host already resolved to
         * the address the connection comes from when the agent advertised none). Called once, right
         * after the sink opened, before its first frame. Default: ignored.
         */
        default void announced(io.sonde.format.stream.ObserveEndpoint endpoint) {}

        /** Orderly end of the connection: make what was written durable and release it. */
        void close() throws IOException;

        /** Abrupt end (receiver killed): release without finishing anything. */
        void abort();

        /** Where the frames go, for messages (e.g. the segment file). */
        String target();
    }
}
