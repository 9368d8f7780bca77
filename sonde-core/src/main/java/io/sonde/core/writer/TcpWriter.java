package io.sonde.core.writer;

import io.sonde.format.Format;
import io.sonde.format.write.StreamHeader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends frames to a receiver over TCP. Each connection starts with the stream header and registry
 * frames. When a write fails, the writer reconnects with exponential back-off (100 ms doubling up
 * to 5 s, with jitter) and re-sends the failed frame on the new connection with a new sequence
 * number. Meanwhile the writer thread is held here and stops draining, so the rings are the memory
 * bound and the producers' full-ring policy applies.
 *
 * <p>While the pipeline is closing, a writer that is not connected makes one last connection
 * attempt (timeout at most {@link #FINAL_CONNECT_TIMEOUT_MS}) and, if that fails, gives up at once:
 * the frame's records, and everything the final drain still hands it, count as dropped (reason
 * writer failed). Without this, a program whose receiver is down would wait at exit for most of
 * {@code shutdown.timeout.ms}. A connected writer keeps sending until the close deadline, so a slow
 * but live receiver still gets everything; if its connection breaks during the close, the same one
 * last attempt applies.
 */
public final class TcpWriter implements Writer {
    static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Upper bound of the connect timeout of the one attempt a closing, disconnected writer makes. */
    static final int FINAL_CONNECT_TIMEOUT_MS = 1_000;

    private final String host;
    private final int port;
    private final int connectTimeoutMs;
    private final ByteBuffer header =
            ByteBuffer.allocateDirect(Format.STREAM_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private WriterContext context;
    private SocketChannel channel;
    private long connections;
    private long reconnects;

    public TcpWriter(String host, int port, int connectTimeoutMs) {
        this.host = host;
        this.port = port;
        this.connectTimeoutMs = connectTimeoutMs;
        StreamHeader.put(header);
        header.flip();
    }

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        // connect lazily, at the first frame, so that a receiver that is not up yet does not
        // hold the writer thread before there is anything to send
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        boolean sealed = false;
        if (channel != null) {
            context.seal(frame);
            sealed = true;
            try {
                sendFully(frame);
                return;
            } catch (IOException e) {
                disconnect();
            }
        }
        long backoff = MIN_BACKOFF_NANOS;
        for (; ; ) {
            // an attempt begun while closing is the last one (see the class comment)
            boolean last = context.closing();
            try {
                // stream header + registry frames first, so the frame is sealed after them
                connect(last ? finalConnectTimeoutMs(context, connectTimeoutMs) : connectTimeoutMs);
                if (sealed) {
                    context.reseal(frame); // a re-sent frame gets a new sequence number
                } else {
                    context.seal(frame);
                    sealed = true;
                }
                frame.position(0);
                sendFully(frame);
                return;
            } catch (IOException e) {
                disconnect();
                if (last || (context.closing() && System.nanoTime() >= context.closeDeadlineNanos())) {
                    throw new IOException("tcp writer to " + host + ":" + port + " gave up at close, not connected"
                            + " and the last connection attempt failed: "
                            + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
                }
                sleep(context, this, jitter(backoff)); // returns early once the pipeline is closing
                backoff = Math.min(MAX_BACKOFF_NANOS, backoff * 2);
            }
        }
    }

    /** The last attempt's connect timeout: short, and never past the close deadline (shared with {@link AckedTcpWriter}). */
    static int finalConnectTimeoutMs(WriterContext context, int connectTimeoutMs) {
        long left = TimeUnit.NANOSECONDS.toMillis(context.closeDeadlineNanos() - System.nanoTime());
        return (int) Math.max(1, Math.min(left, Math.min(connectTimeoutMs, FINAL_CONNECT_TIMEOUT_MS)));
    }

    private void connect(int timeoutMs) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().connect(new InetSocketAddress(host, port), timeoutMs);
            ch.socket().setTcpNoDelay(true);
            channel = ch;
            header.rewind();
            sendFully(header);
            context.registryFrames(this::sendFully);
            if (connections++ > 0) reconnects++;
        } catch (IOException | RuntimeException e) {
            ch.close();
            channel = null;
            throw e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
        }
    }

    private void sendFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    private void disconnect() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already broken
            }
            channel = null;
        }
    }

    static long jitter(long nanos) {
        // 50..100 % of the step, so many agents do not reconnect in lock step
        return nanos / 2 + ThreadLocalRandom.current().nextLong(nanos / 2 + 1);
    }

    /**
     * Waits {@code nanos} unless the pipeline starts closing (its stop request unparks this thread)
     * or the thread is interrupted.
     */
    static void sleep(WriterContext context, Object blocker, long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            if (context.closing() || Thread.currentThread().isInterrupted()) return; // time for the last attempt
            LockSupport.parkNanos(blocker, left);
        }
    }

    @Override
    public void flush() {}

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    /** Connections made so far (the first one included). */
    public long connections() {
        return connections;
    }

    /** Successful reconnections after a failure. */
    public long reconnects() {
        return reconnects;
    }
}
