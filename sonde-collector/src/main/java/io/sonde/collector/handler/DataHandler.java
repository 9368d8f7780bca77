package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;

/**
 * A data handler of the collector (the OASIS DAC's data handlers): gets every frame the collector
 * receives, as an {@link Envelope}, and does something with it — store it, aggregate it, forward
 * it. Handlers are plug-ins found with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/io.sonde.collector.handler.DataHandler}; it needs a public no-argument
 * constructor) and chosen by {@link #name()}; several run at once.
 *
 * <p>Two kinds, chosen by {@link #lossless()}:
 * <ul>
 *   <li><b>queued</b> (the default): the handler runs on a thread of its own behind a bounded queue.
 *       When the queue is full the frame is dropped for this handler only, and counted; ingest and
 *       the other handlers never wait for it. Calls come from that one thread, in stream order per
 *       connection. Stream start and end events are never dropped.</li>
 *   <li><b>lossless</b> (the archive): the handler runs on the receiving connection's thread, before
 *       the frame is offered to the queued handlers, so it never drops: a slow lossless handler slows
 *       the connections it is called for (TCP back-pressure on those agents) and nothing else.
 *       An exception from it fails that connection, as a bad frame would. Calls for different
 *       connections come from different threads at once.</li>
 * </ul>
 * An exception from a queued handler's {@code handle}, {@code streamStarted}, {@code streamEnded}
 * or {@code flush} is counted and reported with the handler's name and does not stop the handler,
 * the collector or other handlers; one from {@code open} disables the handler.
 */
public interface DataHandler {
    /** The name the handler is chosen by, e.g. {@code archive}, {@code database}. Lower case, no spaces. */
    String name();

    /** Called once before any frame, on the collector's thread. */
    void open(HandlerConfig config) throws Exception;

    /** True for a handler that must never drop (see the class comment). Default false. */
    default boolean lossless() {
        return false;
    }

    /** True if the handler calls {@link Envelope#decode()}; then the collector keeps what decoding needs. Default false. */
    default boolean decodes() {
        return false;
    }

    /** A connection's first frame arrived; the stream's node data is known. */
    default void streamStarted(StreamInfo stream) throws Exception {}

    /** One frame of a stream whose start was delivered before. */
    void handle(Envelope envelope) throws Exception;

    /**
     * Lossless handlers: make everything {@link #handle} took for this stream durable (e.g. force it
     * to disk). Called on the connection's thread before the collector acknowledges frames to the
     * agent (acknowledged delivery, in batches of at most about 20 ms). Default: nothing to do.
     */
    default void force(StreamInfo stream) throws Exception {}

    /**
     * A connection ended.
     *
     * @param clean true if it ended at a frame boundary (the agent closed, a stop, or bad input after
     *     whole frames); false if the collector was aborted (killed)
     */
    default void streamEnded(StreamInfo stream, boolean clean) throws Exception {}

    /** Called about once a second on a queued handler's thread while it is idle or busy, and before {@link #close()}: commit what is pending. */
    default void flush() throws Exception {}

    /** Called once after the last frame (queued handlers: after their queue was drained). */
    void close() throws Exception;
}
