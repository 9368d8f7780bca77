package io.sonde.core.writer;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where finished frames go. Called only from the writer thread, one call at a time.
 *
 * <p>{@link #write} receives a frame that is complete but not yet sealed: its bytes occupy
 * {@code [0, position())}. A writer that emits the frame calls {@link WriterContext#seal} right
 * before writing it; sealing assigns the next sequence number, the times and the CRC and flips the
 * buffer. Sealing at the moment of emission keeps sequence numbers in stream order even when the
 * writer inserts frames of its own (a registry frame at a new segment or connection, SEGMENT_END).
 * The buffer is reused for the next frame once {@code write} returns, so a writer must not keep it.
 */
public interface Writer {
    /** Called once on the writer thread before the first frame. */
    void open(WriterContext context) throws IOException;

    /** Emits one frame (see the class comment for the buffer contract). */
    void write(ByteBuffer frame) throws IOException;

    /** Pushes buffered bytes towards their destination (called after each flush interval). */
    void flush() throws IOException;

    /**
     * Called once at close on the writer thread, after the last data frame and before the
     * trailer's counts are taken: a writer that learns only later whether its frames arrived (a
     * broker's acknowledgement) waits here, not past {@link WriterContext#closeDeadlineNanos()},
     * and reports the frames lost meanwhile ({@link WriterContext#droppedAfterWrite}), so that the
     * trailer counts them. Default: nothing to wait for.
     */
    default void awaitDelivery() throws IOException {}

    /** Releases resources; called once, after the last frame (the trailer, on clean close). */
    void close() throws IOException;

    /**
     * The process's observe endpoint started (or changed): a writer that talks to a collector tells
     * it, so the collector can relay observers to this process (format 2.3 HELLO). Any thread.
     * Default: nothing to tell.
     *
     * @param port the endpoint's port
     * @param advertisedHost the host to announce; empty: the address the collector sees the connection come from
     * @param tls whether the endpoint serves TLS (announced in the HELLO's observe flags)
     */
    default void announceObserve(int port, String advertisedHost, boolean tls) {}
}
