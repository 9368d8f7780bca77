package io.sonde.collector.receive;

import io.sonde.collector.archive.FrameHandler.StreamSink;
import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.FrameHeader;
import io.sonde.format.read.FrameInput;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.UUID;

/**
 * Serves one connection on its own thread: envelope checks, frames to the sink, counters, limits.
 * The stream is either a socket's or, for tests, an in-memory stream served on the caller's thread
 * by the same code.
 */
final class Connection {
    private final Receiver receiver;
    private final Socket socket;
    private final String peer;
    private final Thread thread;
    private volatile boolean aborted;
    /** Close with a reset instead of a FIN (see {@link #closeSocket()}). */
    private boolean reset;
    private volatile StreamSink sink;
    private ActivityInput input;
    private FrameInput in;
    private boolean ended;

    // What this connection delivered (connection thread only).
    private UUID agent;
    private long frames;
    private long bytes;
    private long firstSequence = -1;
    private long lastSequence = -1;
    private long missingFrames;
    private long outOfOrderFrames;
    private boolean trailer;

    Connection(Receiver receiver, Socket socket) {
        this.receiver = receiver;
        this.socket = socket;
        this.peer = socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        this.thread = new Thread(this::run, "sonde-receiver-" + peer);
        this.thread.setDaemon(true);
    }

    /** A connection over an in-memory stream, served by {@link #serve(InputStream)} on the caller's thread. */
    Connection(Receiver receiver, String peer) {
        this.receiver = receiver;
        this.socket = null;
        this.peer = peer;
        this.thread = null;
    }

    void start() {
        thread.start();
    }

    void join(long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes socket and file at once (receiver killed). */
    void abort() {
        aborted = true;
        closeSocket();
        StreamSink s = sink;
        if (s != null) {
            s.abort();
        }
    }

    private void run() {
        try {
            socket.setSoTimeout((int) Math.min(Receiver.POLL_MILLIS, Math.max(1, receiver.limits().idleTimeout().toMillis())));
            socket.setTcpNoDelay(true);
            serve(socket.getInputStream());
        } catch (IOException e) {
            // the socket failed before its stream could be read
            receiver.listener().failed(peer, 0, "I/O error: " + message(e), summary());
            receiver.ended(this, true);
        } finally {
            closeSocket();
        }
    }

    /** Reads the whole stream, stores its frames, reports how it ended; never throws. */
    void serve(InputStream raw) {
        ReceiverListener listener = receiver.listener();
        listener.opened(peer);
        boolean error = false;
        try {
            input = new ActivityInput(raw);
            in = new FrameInput(input, peer, receiver.limits().maxFrameBytes());
            if (readStreamHeader()) {
                Receiver.AgentCounters counters = null;
                while (nextFrame()) {
                    FrameHeader h = in.header();
                    if (agent == null) {
                        agent = h.agentId();
                        counters = receiver.admit(agent);
                        if (counters == null) {
                            throw new LimitExceeded(h.offset() + Format.FRAME_OFF_AGENT_MSB, "agent " + agent + " refused: this receiver already stores "
                                    + receiver.limits().maxAgents() + " agents (limit max-agents); nothing of it stored");
                        }
                        sink = receiver.handler().open(agent, in.streamHeaderBytes(), peer);
                        counters.connected();
                        if (aborted) {
                            sink.abort();
                            break;
                        }
                    } else if (agent.getMostSignificantBits() != h.agentMostSignificantBits()
                            || agent.getLeastSignificantBits() != h.agentLeastSignificantBits()) {
                        throw new FormatException(peer, h.offset() + Format.FRAME_OFF_AGENT_MSB, FormatProblem.AGENT_CHANGED,
                                "frame of agent " + h.agentId() + " on the connection of agent " + agent);
                    }
                    sink.frame(in.frameBytes(), in.frameLength());
                    account(h);
                    counters.frame(h.sequence(), in.frameLength(), h.type() == Format.FRAME_TRAILER);
                    if (receiver.stopping()) {
                        break; // graceful stop: at a frame boundary
                    }
                }
            }
            finish();
            end(false);
            if (!aborted) {
                listener.closed(peer, summary());
            }
        } catch (FormatException e) {
            error = true;
            String detail = e.detail();
            if (e.problem() == FormatProblem.TRUNCATED) {
                detail += "; partial frame discarded";
            } else if (e.problem() == FormatProblem.BAD_FRAME_LENGTH && receiver.limits().maxFrameBytes() < Format.MAX_FRAME_BYTES) {
                detail += "; receiver limit max-frame-bytes";
            }
            finishQuietly();
            end(true);
            listener.failed(peer, e.offset(), detail, summary());
        } catch (LimitExceeded e) {
            error = true;
            reset = true;
            finishQuietly();
            end(true);
            listener.failed(peer, e.offset, e.getMessage() + partialNote(), summary());
        } catch (IOException | RuntimeException e) {
            // RuntimeException: a handler's bug must cost this connection only, never the receiver
            finishQuietly();
            if (!aborted) {
                error = true;
            }
            end(error);
            if (!aborted) {
                listener.failed(peer, position(), (e instanceof IOException ? "I/O error: " : "internal error: ") + message(e) + partialNote(),
                        summary());
            }
        } finally {
            end(error);
        }
    }

    /**
     * Leaves the receiver's set of open connections, once. Done before the listener hears of the
     * end, so whoever reacts to "closed" or "failed" sees a status without this connection.
     */
    private void end(boolean withError) {
        if (!ended) {
            ended = true;
            receiver.ended(this, withError);
        }
    }

    /** Sequence bookkeeping of one stored frame: gaps are frames the agent sealed that never arrived here. */
    private void account(FrameHeader h) {
        long seq = h.sequence();
        if (frames == 0) {
            firstSequence = seq;
            lastSequence = seq;
        } else if (seq > lastSequence) {
            missingFrames = saturatingAdd(missingFrames, gap(lastSequence, seq));
            lastSequence = seq;
        } else {
            outOfOrderFrames++;
        }
        trailer |= h.type() == Format.FRAME_TRAILER;
        frames++;
        bytes += h.length();
    }

    /** Numbers strictly between from and to (to greater than from), saturating instead of overflowing. */
    static long gap(long from, long to) {
        long d = to - from - 1;
        return d < 0 ? Long.MAX_VALUE : d; // negative only on overflow (absurd numbers from a bad writer)
    }

    static long saturatingAdd(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    StreamSummary summary() {
        return new StreamSummary(agent, frames, bytes, firstSequence, lastSequence, missingFrames, outOfOrderFrames, trailer, target());
    }

    /** Capacity of the frame buffer this connection ended with (it only grows): for the memory-bound tests. */
    int bufferCapacity() {
        return in == null ? 0 : in.frameBytes().length;
    }

    /** Where the stream stands: past the bytes read, or at the start of a frame read but not stored (its sink failed). */
    private long position() {
        if (in == null) {
            return 0;
        }
        return in.frameLength() >= 0 ? in.frameOffset() : in.endOfLastFrame() + in.partialBytes();
    }

    private String partialNote() {
        return in != null && in.midFrame() ? "; partial frame of " + in.partialBytes() + " bytes discarded" : "";
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private String target() {
        StreamSink s = sink;
        return s == null ? null : s.target();
    }

    /** Reads the stream header, polling so that a stop is noticed; false if nothing came. */
    private boolean readStreamHeader() throws IOException {
        while (true) {
            try {
                return in.readStreamHeader();
            } catch (SocketTimeoutException e) {
                if (receiver.stopping() && (in.partialBytes() == 0 || System.nanoTime() > receiver.stopDeadline())) {
                    return false;
                }
                checkIdle();
            }
        }
    }

    /** Reads the next frame, polling so that a stop is noticed; false at the end of the connection. */
    private boolean nextFrame() throws IOException {
        while (true) {
            try {
                return in.nextFrame();
            } catch (SocketTimeoutException e) {
                if (receiver.stopping()) {
                    if (!in.midFrame()) {
                        return false;
                    }
                    if (System.nanoTime() > receiver.stopDeadline()) {
                        throw new FormatException(peer, in.endOfLastFrame() + in.partialBytes(), FormatProblem.TRUNCATED,
                                "receiver stopped while the frame at offset " + in.endOfLastFrame() + " was incomplete ("
                                        + in.partialBytes() + " bytes received)");
                    }
                }
                checkIdle();
            }
        }
    }

    private void checkIdle() throws LimitExceeded {
        Duration limit = receiver.limits().idleTimeout();
        long idleNanos = System.nanoTime() - input.lastReadNanos();
        if (idleNanos >= limit.toNanos()) {
            throw new LimitExceeded(position(), "no data for " + ReceiverLimits.seconds(Duration.ofMillis(idleNanos / 1_000_000))
                    + " (limit idle-timeout " + ReceiverLimits.seconds(limit) + ")");
        }
    }

    private void finish() throws IOException {
        StreamSink s = sink;
        if (s != null && !aborted) {
            s.close();
        }
    }

    private void finishQuietly() {
        try {
            finish();
        } catch (IOException ignored) {
            // the connection already failed; the file keeps its whole frames
        }
    }

    /**
     * After an exceeded limit the socket is reset rather than closed in order: a TCP writer never
     * reads, so after a FIN its next frame would still be accepted by its kernel and then lost (an
     * idle agent's first frame after the idle timeout); after a reset that write fails, and the
     * writer reconnects and sends the frame again.
     */
    private void closeSocket() {
        if (socket == null) {
            return;
        }
        try {
            if (reset) {
                socket.setSoLinger(true, 0);
            }
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** A receiver limit this connection exceeded; the message names the limit. */
    private static final class LimitExceeded extends IOException {
        private static final long serialVersionUID = 1L;
        final long offset;

        LimitExceeded(long offset, String message) {
            super(message);
            this.offset = offset;
        }
    }

    /** Remembers when bytes last arrived, for the idle timeout. */
    private static final class ActivityInput extends InputStream {
        private final InputStream in;
        private long lastReadNanos = System.nanoTime();

        ActivityInput(InputStream in) {
            this.in = in;
        }

        long lastReadNanos() {
            return lastReadNanos;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                lastReadNanos = System.nanoTime();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                lastReadNanos = System.nanoTime();
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
