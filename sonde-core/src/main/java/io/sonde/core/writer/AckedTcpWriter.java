package io.sonde.core.writer;

import io.sonde.core.log.SondeLog;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.FrameInput;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import io.sonde.format.stream.ObserveEndpoint;
import io.sonde.format.stream.TlsSockets;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends frames to a collector with acknowledged delivery (format 2.2, docs/format.md section 8.1).
 * Each connection opens with HELLO (token, the highest number acknowledged so far, the next number);
 * the collector answers ACCEPT with the highest number it holds durably, or REFUSE. Every frame
 * sent stays in a {@link ResendBuffer} until an ACK covers it; after a reconnect the writer
 * re-sends what the ACCEPT does not cover, under the frames' original numbers, preceded by a
 * repeated registry frame so the new segment can be decoded. When the process serves an observe
 * endpoint ({@link #announceObserve}), HELLO also announces it (a format 2.3 stream), so the
 * collector can relay observers to it; with an {@link SSLContext} every connection is TLS.
 *
 * <p>While disconnected the writer keeps sealing frames into the buffer (they go out at the next
 * connection) and tries to reconnect with exponential back-off (100 ms doubling to 5 s, jittered)
 * at each frame and flush. When the buffer is full the pipeline's policy applies: {@code drop}
 * drops the frame at once (its records count as dropped, reason resend-buffer-full; it gets no
 * sequence number, so no gap appears); {@code block} and {@code block-forever} hold the writer
 * thread until acknowledgements free room, so the rings fill and the producers' policy applies.
 *
 * <p>While the pipeline is closing, a writer that is not connected makes one last connection
 * attempt per frame and gives up if it fails (the frame's records count as writer failed), as
 * the unacknowledged {@link TcpWriter} does. {@link #close()} waits, until the close deadline,
 * for the acknowledgement of the last frame (the trailer); frames still unacknowledged then are
 * reported in a warning: their records were counted as written, but only the collector knows
 * whether it stored them.
 */
public final class AckedTcpWriter implements Writer {
    /** How long the writer waits for the collector's answer to HELLO. */
    static final int HANDSHAKE_TIMEOUT_MS = 10_000;
    /** Longest wait for an acknowledgement in one step of a blocked writer. */
    private static final long ACK_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final String host;
    private final SSLContext tls;
    private final int port;
    private final int connectTimeoutMs;
    private final String token;
    private final boolean dropWhenFull;
    private final ResendBuffer unacked;
    /** Highest number any collector acknowledged to this process (ACCEPT or ACK), -1 for none. */
    private final AtomicLong acknowledged = new AtomicLong(DeliveryProtocol.NONE);
    private WriterContext context;
    private DeliveryCodec codec;
    private Thread writerThread;
    private Socket socket;
    private OutputStream out;
    private volatile AckReader reader;
    /** Highest number this writer sealed, -1 before the first frame. */
    private long lastSealed = -1;
    private long nextAttemptNanos;
    private long backoffNanos = TcpWriter.MIN_BACKOFF_NANOS;
    private long connections;
    private long reconnects;
    private long resentFrames;
    private long droppedFrames;
    private String lastProblem;
    /** The observe endpoint to announce in HELLO (set from any thread), and the one the open connection announced. */
    private volatile ObserveEndpoint observe;
    private ObserveEndpoint announced;

    /**
     * @param token the collector's token ({@code ""}: none)
     * @param resendBytes budget of the buffer of unacknowledged frames
     * @param dropWhenFull true for the {@code drop} policy, false for the blocking ones
     */
    public AckedTcpWriter(String host, int port, int connectTimeoutMs, String token, int resendBytes, boolean dropWhenFull) {
        this(host, port, connectTimeoutMs, token, resendBytes, dropWhenFull, null);
    }

    /**
     * As {@link #AckedTcpWriter(String, int, int, String, int, boolean)}, over TLS with {@code tls}
     * (null: plain TCP); the collector's certificate must name {@code host}.
     */
    public AckedTcpWriter(String host, int port, int connectTimeoutMs, String token, int resendBytes, boolean dropWhenFull, SSLContext tls) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.connectTimeoutMs = connectTimeoutMs;
        this.token = token;
        this.dropWhenFull = dropWhenFull;
        this.unacked = new ResendBuffer(resendBytes);
    }

    @Override
    public void open(WriterContext context) {
        this.context = context;
        this.codec = new DeliveryCodec(context.agentId(), ProcessHandle.current().pid(), "");
        this.writerThread = Thread.currentThread();
        // connect lazily, at the first frame (a collector that is not up yet holds nothing back)
    }

    @Override
    public void announceObserve(int port, String advertisedHost, boolean tls) {
        observe = new ObserveEndpoint(advertisedHost, port, tls);
    }

    /**
     * An endpoint announced after this connection's HELLO (the observe endpoint starts after the
     * pipeline): reconnect so the collector learns it. Nothing is lost: the new connection re-sends
     * what the collector has not acknowledged, as after any reconnect.
     */
    private void reannounce() {
        if (socket != null && observe != announced) {
            disconnect("announcing the observe endpoint " + observe);
            reconnectIfDue(false);
        }
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        releaseAcknowledged();
        reannounce();
        ensureConnected();
        int length = frame.position();
        while (!unacked.fits(length)) {
            if (dropWhenFull || (context.closing() && System.nanoTime() >= context.closeDeadlineNanos())) {
                droppedFrames++;
                throw new FrameDroppedException(DropReason.RESEND_BUFFER_FULL, "tcp writer to " + where() + ": " + unacked.frames()
                        + " frames (" + unacked.bytes() + " bytes) wait for the collector's acknowledgement; buffer of "
                        + unacked.capacity() + " bytes full (tcp.resend.mib)", null);
            }
            awaitAcknowledgement();
        }
        context.seal(frame);
        lastSealed = frame.getLong(Format.FRAME_OFF_SEQUENCE);
        unacked.add(lastSealed, frame);
        try {
            unacked.sendNewest(out);
        } catch (IOException e) {
            disconnect("sending failed: " + message(e));
            ensureConnected(); // the new connection re-sends this frame with the others not acknowledged
        }
    }

    /**
     * Returns connected, reconnecting with back-off as long as it takes. Meanwhile the writer thread
     * stops draining, so the rings are the memory bound and the producers' policy applies; frames
     * are only buffered once sent. While closing, one attempt, then an exception (the caller counts
     * the frame as writer failed).
     */
    private void ensureConnected() throws IOException {
        while (socket == null) {
            boolean last = context.closing();
            reconnectIfDue(last);
            if (socket != null) return;
            if (last) {
                throw new IOException("tcp writer to " + where() + " gave up at close, not connected and the last connection attempt failed: "
                        + lastProblem);
            }
            TcpWriter.sleep(context, this, nextAttemptNanos - System.nanoTime()); // returns early once the pipeline is closing
        }
    }

    /** Blocked on a full buffer: waits a little for an acknowledgement (the ACK reader unparks this thread). */
    private void awaitAcknowledgement() throws IOException {
        AckReader r = reader;
        if (r != null && r.broken != null) {
            disconnect(r.broken);
            ensureConnected(); // re-sends; the ACCEPT frees what the collector holds
        } else {
            LockSupport.parkNanos(this, ACK_WAIT_NANOS);
        }
        releaseAcknowledged();
    }

    private void releaseAcknowledged() {
        unacked.releaseUpTo(acknowledged.get());
    }

    /** One connection attempt if the back-off allows one now (always when closing); re-sends on success. */
    private void reconnectIfDue(boolean last) {
        if (!last && System.nanoTime() < nextAttemptNanos) return;
        try {
            connect(last ? TcpWriter.finalConnectTimeoutMs(context, connectTimeoutMs) : connectTimeoutMs);
            backoffNanos = TcpWriter.MIN_BACKOFF_NANOS;
        } catch (IOException e) {
            disconnect(message(e));
            nextAttemptNanos = System.nanoTime() + TcpWriter.jitter(backoffNanos);
            backoffNanos = Math.min(TcpWriter.MAX_BACKOFF_NANOS, backoffNanos * 2);
        }
    }

    /** Connects, shakes hands and sends what the collector does not hold. */
    private void connect(int timeoutMs) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), timeoutMs);
            s.setTcpNoDelay(true);
            if (tls != null) s = TlsSockets.handshake(tls, s, host, port, context.closing() ? timeoutMs : HANDSHAKE_TIMEOUT_MS);
            s.setSoTimeout(Math.max(timeoutMs, context.closing() ? timeoutMs : HANDSHAKE_TIMEOUT_MS));
            OutputStream o = s.getOutputStream();
            ObserveEndpoint announce = observe;
            // 2.3 only when there is an endpoint to announce: the lowest version whose features the stream uses
            o.write(DeliveryProtocol.streamHeader(announce == null ? DeliveryProtocol.STREAM_MINOR_VERSION
                    : DeliveryProtocol.ANNOUNCE_MINOR_VERSION));
            o.write(codec.hello(new DeliveryMessage.Hello(token, acknowledged.get(), lastSealed + 1, announce)));
            FrameInput in = new FrameInput(s.getInputStream(), where(), DeliveryProtocol.MAX_FRAME_BYTES);
            long held = handshake(in);
            socket = s;
            out = o;
            announced = announce;
            acknowledged.accumulateAndGet(held, Math::max);
            releaseAcknowledged();
            long resend = unacked.frames();
            if (lastSealed >= 0) {
                // the new segment must be decodable: repeat every definition, numbered as the frame before the first sent
                long before = unacked.frames() > 0 ? unacked.firstSequence() - 1 : lastSealed;
                if (before >= 0) context.repeatedRegistryFrames(before, this::sendDirect);
            }
            unacked.sendAll(o);
            s.setSoTimeout(0); // from here the ACK reader blocks until the socket closes
            AckReader r = new AckReader(in, writerThread);
            reader = r;
            Thread t = new Thread(r, "sonde-tcp-acks");
            t.setDaemon(true);
            t.start();
            if (connections++ > 0) reconnects++;
            resentFrames += resend;
        } catch (IOException | RuntimeException e) {
            socket = null;
            out = null;
            closeQuietly(s);
            throw e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
        }
    }

    /** Reads the collector's answer to HELLO: the number it holds, or an exception saying why not. */
    private long handshake(FrameInput in) throws IOException {
        if (!in.readStreamHeader()) {
            throw new IOException("the collector closed the connection without answering HELLO");
        }
        if (in.minorVersion() < DeliveryProtocol.STREAM_MINOR_VERSION) {
            throw new IOException("the collector answered with a " + in.majorVersion() + "." + in.minorVersion() + " stream, not 2."
                    + DeliveryProtocol.STREAM_MINOR_VERSION);
        }
        if (!in.nextFrame()) {
            throw new IOException("the collector closed the connection without answering HELLO");
        }
        DeliveryMessage m = DeliveryCodec.decode(in.header(), in.frameBytes());
        if (m instanceof DeliveryMessage.Refuse refuse) {
            String why = "collector " + where() + " refused the stream (" + DeliveryProtocol.refusalName(refuse.code()) + "): " + refuse.reason();
            SondeLog.warn("tcp.refused", why);
            throw new IOException(why);
        }
        if (!(m instanceof DeliveryMessage.Accept accept)) {
            throw new IOException("the collector answered HELLO with frame type " + in.header().type() + ", not ACCEPT or REFUSE");
        }
        if (accept.held() > lastSealed && lastSealed >= 0) {
            throw new IOException("the collector holds frames of agent " + context.agentId() + " up to " + accept.held()
                    + " but this process sealed only up to " + lastSealed + " (is the agent id used by another process?)");
        }
        return accept.held();
    }

    private void sendDirect(ByteBuffer sealed) throws IOException {
        out.write(toArray(sealed));
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] a = new byte[b.limit()];
        b.get(0, a);
        return a;
    }

    private void disconnect(String problem) {
        lastProblem = problem;
        closeQuietly(socket);
        socket = null;
        out = null;
        reader = null;
    }

    private static void closeQuietly(Socket s) {
        if (s == null) return;
        try {
            s.close();
        } catch (IOException ignored) {
            // already broken
        }
    }

    @Override
    public void flush() {
        releaseAcknowledged();
        reannounce();
        AckReader r = reader;
        if (socket != null && r != null && r.broken != null) {
            disconnect(r.broken);
        }
        if (socket == null && unacked.frames() > 0) {
            reconnectIfDue(false); // deliver what waits even when the application is quiet
        }
    }

    /** Waits (until the close deadline) for the acknowledgement of every frame sent, then closes the connection. */
    @Override
    public void close() {
        long now = System.nanoTime();
        long deadline = context.closing() ? Math.max(context.closeDeadlineNanos(), now + TimeUnit.MILLISECONDS.toNanos(100))
                : now + TimeUnit.SECONDS.toNanos(10); // closed without a stop request (a failure path): bounded anyway
        while (unacked.frames() > 0 && System.nanoTime() < deadline) {
            AckReader r = reader;
            if (socket != null && r != null && r.broken != null) disconnect(r.broken);
            if (socket == null) {
                reconnectIfDue(true);
                if (socket == null) break;
            } else {
                LockSupport.parkNanos(this, ACK_WAIT_NANOS);
            }
            releaseAcknowledged();
        }
        if (unacked.frames() > 0) {
            SondeLog.warn("tcp.unacknowledged", "tcp writer to " + where() + ": " + unacked.frames() + " frames (" + unacked.bytes()
                    + " bytes, sequence " + unacked.firstSequence() + " to " + lastSealed + ") not acknowledged by the collector at close"
                    + (lastProblem != null ? " (" + lastProblem + ")" : "") + "; their records were counted as written");
        }
        disconnect(null);
    }

    private String where() {
        return host + ":" + port;
    }

    private static String message(Throwable e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Connections made so far (the first one included). */
    public long connections() {
        return connections;
    }

    /** Successful reconnections after a failure. */
    public long reconnects() {
        return reconnects;
    }

    /** Frames sent again after reconnections. */
    public long resentFrames() {
        return resentFrames;
    }

    /** Frames dropped because the buffer of unacknowledged frames was full. */
    public long droppedFrames() {
        return droppedFrames;
    }

    /** Reads the collector's ACKs on a connection's own thread; notes how the connection broke. */
    private final class AckReader implements Runnable {
        private final FrameInput in;
        private final Thread writer;
        /** Why the connection is broken, null while it is fine. */
        volatile String broken;

        AckReader(FrameInput in, Thread writer) {
            this.in = in;
            this.writer = writer;
        }

        @Override
        public void run() {
            String why = "the collector closed the connection";
            try {
                while (in.nextFrame()) {
                    DeliveryMessage m = DeliveryCodec.decode(in.header(), in.frameBytes());
                    if (m instanceof DeliveryMessage.Ack ack) {
                        acknowledged.accumulateAndGet(ack.durable(), Math::max);
                        LockSupport.unpark(writer);
                    }
                }
            } catch (IOException | RuntimeException e) {
                why = "reading acknowledgements failed: " + message(e);
            } finally {
                broken = why;
                LockSupport.unpark(writer);
            }
        }
    }
}
