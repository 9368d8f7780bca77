package io.sonde.collector.receive;

import io.sonde.collector.archive.FrameHandler.StreamSink;
import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.FrameHeader;
import io.sonde.format.read.FrameInput;
import io.sonde.format.observe.MalformedMessageException;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.format.stream.TokenFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLSocket;
import java.time.Duration;
import java.util.UUID;

/**
 * Serves one connection on its own thread: envelope checks, frames to the sink, counters, limits.
 * The stream is either a socket's or, for tests, an in-memory stream served on the caller's thread
 * by the same code.
 */
final class Connection {
    /** Acknowledged streams: force and acknowledge at least this often while frames arrive. */
    static final long ACK_INTERVAL_NANOS = 20_000_000L;
    /** Acknowledged streams: force and acknowledge after this many frames at the latest. */
    static final int ACK_MAX_FRAMES = 1024;
    /** Acknowledged streams: read timeout, so that the frames of an idle connection are acknowledged soon. */
    static final int ACK_POLL_MILLIS = 20;

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

    // Acknowledged delivery (2.2 streams only; connection thread only, except superseded).
    private DeliveryLedger.Agent delivery;
    private OutputStream answers;
    private DeliveryCodec codec;
    private long held = -1;
    /** Highest number this connection acknowledged (ACCEPT or ACK); read by a new connection of the agent (see {@link #acknowledged()}). */
    private volatile long acknowledgedHeld = -1;
    private long unforced;
    private long lastForceNanos;
    private long duplicates;
    /** True once a frame arrived that the agent has not had an ACK for. */
    private boolean ackDue;
    private volatile boolean superseded;
    /** The observe endpoint the agent's HELLO announced (host resolved), or null. */
    private ObserveEndpoint observeEndpoint;

    /** How long a TLS client has for its handshake. */
    static final int HANDSHAKE_TIMEOUT_MS = 10_000;

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

    /**
     * A new connection of the same agent took over: closes this socket so that this connection's
     * thread ends at once (storing and forcing what it has), and waits for it a while.
     *
     * @return false if the thread is still running (e.g. a lossless handler still waits for Kafka)
     */
    boolean supersede() {
        superseded = true;
        closeSocket();
        if (thread != null && thread != Thread.currentThread()) {
            join(Receiver.STOP_GRACE_MILLIS);
            return !thread.isAlive();
        }
        return true;
    }

    /** Highest frame number this connection acknowledged to the agent, -1 for none. */
    long acknowledged() {
        return acknowledgedHeld;
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
            if (socket instanceof SSLSocket ssl) {
                // before the short poll timeout below: a handshake must not time out between two polls
                ssl.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
                ssl.startHandshake();
            }
            socket.setSoTimeout((int) Math.min(Receiver.POLL_MILLIS, Math.max(1, receiver.limits().idleTimeout().toMillis())));
            socket.setTcpNoDelay(true);
            serve(socket.getInputStream());
        } catch (IOException e) {
            // the socket failed before its stream could be read
            receiver.listener().failed(peer, 0, (socket instanceof SSLSocket ? "TLS handshake or " : "") + "I/O error: " + message(e), summary());
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
                if (in.majorVersion() == Format.MAJOR_VERSION && in.minorVersion() >= DeliveryProtocol.STREAM_MINOR_VERSION) {
                    counters = handshake();
                } else if (receiver.delivery().tokenRequired()) {
                    throw new LimitExceeded(Format.STREAM_OFF_MAJOR, "refused: a format " + in.majorVersion() + "." + in.minorVersion()
                            + " stream has no HELLO to carry a token, and this collector requires one (--token-file);"
                            + " the agent needs tcp.ack=true and tcp.token.file");
                }
                while (nextFrame()) {
                    FrameHeader h = in.header();
                    if (agent == null) {
                        agent = h.agentId();
                        counters = admit(h);
                    } else if (agent.getMostSignificantBits() != h.agentMostSignificantBits()
                            || agent.getLeastSignificantBits() != h.agentLeastSignificantBits()) {
                        throw new FormatException(peer, h.offset() + Format.FRAME_OFF_AGENT_MSB, FormatProblem.AGENT_CHANGED,
                                "frame of agent " + h.agentId() + " on the connection of agent " + agent);
                    }
                    if (sink == null) {
                        sink = receiver.handler().open(agent, in.streamHeaderBytes(), peer);
                        if (observeEndpoint != null) sink.announced(observeEndpoint);
                        counters.connected();
                        if (aborted) {
                            sink.abort();
                            break;
                        }
                    }
                    if (delivery == null) {
                        sink.frame(in.frameBytes(), in.frameLength());
                        account(h);
                        counters.frame(h.sequence(), in.frameLength(), h.type() == Format.FRAME_TRAILER);
                    } else {
                        acknowledgedFrame(h, counters);
                    }
                    if (receiver.stopping()) {
                        break; // graceful stop: at a frame boundary
                    }
                }
                if (delivery != null && !aborted) {
                    try {
                        acknowledge(true); // the last batch, e.g. at a graceful stop
                    } catch (IOException agentGone) {
                        // the agent closed first: it had its acknowledgements; closing the sink forces anyway
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
        } catch (Refused e) {
            error = true;
            finishQuietly();
            end(true);
            listener.failed(peer, e.offset, "refused: " + e.getMessage(), summary());
        } catch (LimitExceeded e) {
            error = true;
            reset = true;
            finishQuietly();
            end(true);
            listener.failed(peer, e.offset, e.getMessage() + partialNote(), summary());
        } catch (IOException | RuntimeException e) {
            // RuntimeException: a handler's bug must cost this connection only, never the receiver
            finishQuietly();
            if (superseded) {
                end(false);
                listener.closed(peer, summary()); // the agent reconnected; its new connection goes on
                return;
            }
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

    /** Counters of the agent of this connection, admitting it within max-agents (else the connection is refused). */
    private Receiver.AgentCounters admit(FrameHeader h) throws LimitExceeded {
        Receiver.AgentCounters counters = receiver.admit(agent);
        if (counters == null) {
            throw new LimitExceeded(h.offset() + Format.FRAME_OFF_AGENT_MSB, "agent " + agent + " refused: this receiver already stores "
                    + receiver.limits().maxAgents() + " agents (limit max-agents); nothing of it stored");
        }
        return counters;
    }

    /**
     * The opening of an acknowledged (2.2) stream: reads HELLO, checks the token and the agent limit,
     * takes over the agent's stream and answers ACCEPT with the highest number held; or answers
     * REFUSE and throws {@link Refused}.
     */
    private Receiver.AgentCounters handshake() throws IOException {
        answers = socket != null ? socket.getOutputStream() : OutputStream.nullOutputStream();
        if (!nextFrame()) {
            throw new FormatException(peer, in.endOfLastFrame(), FormatProblem.TRUNCATED, "a 2.2 stream ended before its HELLO frame");
        }
        FrameHeader h = in.header();
        if (h.type() != DeliveryProtocol.FRAME_HELLO) {
            throw new FormatException(peer, h.offset() + Format.FRAME_OFF_TYPE, FormatProblem.UNEXPECTED_FRAME,
                    "a 2.2 stream must open with a HELLO frame (type " + DeliveryProtocol.FRAME_HELLO + "), found type " + h.type());
        }
        DeliveryMessage.Hello hello;
        try {
            hello = (DeliveryMessage.Hello) DeliveryCodec.decode(h, in.frameBytes());
        } catch (MalformedMessageException e) {
            throw new FormatException(peer, h.offset() + h.headerLength(), FormatProblem.BAD_VALUE, "HELLO: " + e.getMessage());
        }
        agent = h.agentId();
        if (hello.observe() != null) {
            if (in.minorVersion() < DeliveryProtocol.ANNOUNCE_MINOR_VERSION) {
                throw new FormatException(peer, h.offset() + h.headerLength(), FormatProblem.BAD_VALUE, "HELLO: a 2."
                        + in.minorVersion() + " stream's HELLO carries the observe endpoint fields of 2." + DeliveryProtocol.ANNOUNCE_MINOR_VERSION);
            }
            observeEndpoint = hello.observe().resolved(socket != null ? socket.getInetAddress().getHostAddress() : peerHost());
        }
        codec = new DeliveryCodec(agent, ProcessHandle.current().pid(), "");
        String token = receiver.delivery().token();
        if (token != null && !TokenFile.matches(token, hello.token())) {
            refuse(h, DeliveryProtocol.REFUSED_TOKEN, hello.token().isEmpty()
                    ? "this collector requires a token and agent " + agent + " sent none (tcp.token.file)"
                    : "wrong token from agent " + agent);
        }
        Receiver.AgentCounters counters = receiver.admit(agent);
        if (counters == null) {
            refuse(h, DeliveryProtocol.REFUSED_LIMIT, "agent " + agent + " refused: this collector already stores "
                    + receiver.limits().maxAgents() + " agents (limit max-agents)");
        }
        delivery = receiver.ledger().open(agent, this, hello, m -> receiver.listener().notice(peer, m));
        held = delivery.held();
        acknowledgedHeld = held;
        answers.write(DeliveryProtocol.streamHeader());
        answers.write(codec.accept(held));
        answers.flush();
        if (socket != null) {
            socket.setSoTimeout(ACK_POLL_MILLIS);
        }
        lastForceNanos = System.nanoTime();
        return counters;
    }

    /** The host part of {@link #peer} (ip:port), for connections without a socket. */
    private String peerHost() {
        int colon = peer.lastIndexOf(':');
        return colon < 0 ? peer : peer.substring(0, colon);
    }

    private void refuse(FrameHeader hello, int code, String reason) throws IOException {
        try {
            answers.write(DeliveryProtocol.streamHeader());
            answers.write(codec.refuse(code, reason));
            answers.flush();
        } catch (IOException gone) {
            // the agent left already; the refusal is still logged
        }
        throw new Refused(hello.offset(), reason);
    }

    /**
     * One frame of an acknowledged stream: a repeated registry frame is stored as it is; a frame
     * numbered at or below what is held is a duplicate (re-sent after a reconnect) and dropped;
     * any other is stored. Frames of the handshake do not belong after it.
     */
    private void acknowledgedFrame(FrameHeader h, Receiver.AgentCounters counters) throws IOException {
        byte type = h.type();
        if (type >= DeliveryProtocol.FRAME_HELLO && type <= DeliveryProtocol.FRAME_ACK) {
            throw new FormatException(peer, h.offset() + Format.FRAME_OFF_TYPE, FormatProblem.UNEXPECTED_FRAME,
                    "frame type " + type + " of the handshake after it");
        }
        if (DeliveryProtocol.isRepeat(h.flags())) {
            sink.frame(in.frameBytes(), in.frameLength());
            unforced++;
        } else if (h.sequence() <= held) {
            duplicates++;
        } else {
            sink.frame(in.frameBytes(), in.frameLength());
            held = h.sequence();
            delivery.stored(held);
            unforced++;
            account(h);
            counters.frame(h.sequence(), in.frameLength(), type == Format.FRAME_TRAILER);
        }
        ackDue = true;
        acknowledge(type == Format.FRAME_TRAILER);
    }

    /**
     * Forces what was stored and acknowledges it, in batches: when {@code now} is true, or after
     * {@link #ACK_INTERVAL_NANOS} or {@link #ACK_MAX_FRAMES} frames. A batch without a new number (only
     * duplicates) is acknowledged too, so an agent re-sending what is held hears of it.
     */
    private void acknowledge(boolean now) throws IOException {
        if (!ackDue) {
            return;
        }
        long t = System.nanoTime();
        if (!now && unforced < ACK_MAX_FRAMES && t - lastForceNanos < ACK_INTERVAL_NANOS) {
            return;
        }
        if (unforced > 0 && sink != null) {
            try {
                sink.force();
            } catch (IOException | RuntimeException e) {
                forgetUnacknowledged();
                throw e;
            }
        }
        unforced = 0;
        ackDue = false;
        lastForceNanos = t;
        answers.write(codec.ack(held));
        answers.flush();
        acknowledgedHeld = held;
    }

    /**
     * A lossless handler could not make the frames durable (e.g. Kafka did not acknowledge them):
     * the frames after the last ACK are not held, so the agent's re-sent copies are taken again
     * instead of being dropped as duplicates.
     */
    private void forgetUnacknowledged() {
        if (delivery != null) {
            held = acknowledgedHeld;
            delivery.unstore(acknowledgedHeld, this);
        }
    }

    /**
     * Leaves the receiver's set of open connections, once. Done before the listener hears of the
     * end, so whoever reacts to "closed" or "failed" sees a status without this connection.
     */
    private void end(boolean withError) {
        if (!ended) {
            ended = true;
            if (delivery != null) {
                receiver.ledger().closed(agent, this);
            }
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
        return new StreamSummary(agent, frames, bytes, firstSequence, lastSequence, missingFrames, outOfOrderFrames, trailer, target(),
                duplicates);
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
                if (delivery != null && !in.midFrame()) {
                    acknowledge(true); // idle: acknowledge the last batch now
                }
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
            try {
                s.close();
            } catch (IOException | RuntimeException e) {
                forgetUnacknowledged();
                throw e;
            }
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

    /** A HELLO the receiver refused (answered with REFUSE, then closed in order so the agent reads it); the message says why. */
    private static final class Refused extends LimitExceeded {
        private static final long serialVersionUID = 1L;

        Refused(long offset, String message) {
            super(offset, message);
        }
    }

    /** A receiver limit this connection exceeded; the message names the limit. */
    private static class LimitExceeded extends IOException {
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
