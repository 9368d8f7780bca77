package io.sonde.collector.receive;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.archive.FrameHandler;
import io.sonde.collector.archive.HeldSequences;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import javax.net.ssl.SSLContext;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP endpoint for Sonde TCP writers. Each connection is served by its own thread, which checks
 * the envelope of what arrives (stream header: magic and version; frames: magic, length range,
 * CRC-32C) without decoding records, and hands whole frames to a {@link FrameHandler} (the
 * archive). A connection sending anything else is logged with its peer address and the byte offset
 * in its stream, and closed; the others are unaffected.
 *
 * <p>Everything a peer can make the receiver hold is bounded by {@link ReceiverLimits}: threads and
 * sockets by max-connections, memory per connection by max-frame-bytes, folders by max-agents, and
 * a silent connection by the idle timeout. A peer exceeding one is closed with a logged reason.
 *
 * <p>A 2.2 stream (acknowledged delivery, docs/format.md section 8.1) opens with HELLO: the
 * receiver checks the token ({@link Delivery}), answers ACCEPT with the highest frame number it
 * holds for the agent (or REFUSE), drops frames it holds already, and acknowledges stored frames
 * once the handler forced them ({@link FrameHandler.StreamSink#force()}), in batches. Without a
 * token any agent is taken, and 2.0 streams (no handshake) too; nothing is encrypted: bind to
 * loopback (the default) unless the network in front of the port is trusted.
 *
 * <p>For each connection and each agent the receiver reports the frame sequence numbers it got
 * ({@link StreamSummary}, {@link ReceiverStatus.AgentStatus}): a gap is a frame the agent sealed
 * and counted as written that never arrived here, or a frame it re-sent under a new number after
 * reconnecting.
 *
 * <pre>{@code
 * Receiver r = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
 *                             new Archive(outDir), ReceiverListener.logging());
 * int port = r.port();
 * ...
 * r.stop();      // stop accepting, let connections finish their current frame, close files
 * }</pre>
 */
public final class Receiver implements AutoCloseable {
    /** How long a stopping receiver waits for a connection to finish the frame it is inside. */
    static final int STOP_GRACE_MILLIS = 2_000;
    /** Read timeout used only to notice a stop while a connection is idle. */
    static final int POLL_MILLIS = 100;

    private final ServerSocket server;
    private final FrameHandler handler;
    private final ReceiverListener listener;
    private final ReceiverLimits limits;
    private final Delivery delivery;
    private final DeliveryLedger ledger;
    private final Thread acceptor;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final Map<UUID, AgentCounters> agents = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private volatile boolean stopping;
    private volatile long stopDeadline;

    private Receiver(ServerSocket server, FrameHandler handler, ReceiverListener listener, ReceiverLimits limits, Delivery delivery) {
        this.server = server;
        this.handler = handler;
        this.listener = listener;
        this.limits = limits;
        this.delivery = delivery;
        this.ledger = new DeliveryLedger(delivery.held());
        this.acceptor = new Thread(this::acceptLoop, "sonde-receiver-accept-" + server.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /** Binds to the loopback interface on the given port (0: any free port) and starts accepting, with default limits. */
    public static Receiver start(int port, FrameHandler handler, ReceiverListener listener) throws IOException {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), handler, listener);
    }

    /** Binds to the given address and starts accepting, with default limits. */
    public static Receiver start(InetSocketAddress bind, FrameHandler handler, ReceiverListener listener) throws IOException {
        return start(bind, handler, listener, ReceiverLimits.defaults());
    }

    /** Binds to the given address and starts accepting, within the given limits. */
    public static Receiver start(InetSocketAddress bind, FrameHandler handler, ReceiverListener listener, ReceiverLimits limits)
            throws IOException {
        // an archive's folder may hold frames of earlier runs: agents re-sending them must find them held
        Delivery delivery = handler instanceof Archive a ? new Delivery(null, HeldSequences.recover(a.directory())) : Delivery.open();
        return start(bind, handler, listener, limits, delivery);
    }

    /**
     * Binds to the given address and starts accepting, within the given limits, with the given token
     * and what the archive held at start (acknowledged delivery, see {@link Delivery}).
     */
    public static Receiver start(InetSocketAddress bind, FrameHandler handler, ReceiverListener listener, ReceiverLimits limits,
            Delivery delivery) throws IOException {
        return start(bind, handler, listener, limits, delivery, null);
    }

    /**
     * As {@link #start(InetSocketAddress, FrameHandler, ReceiverListener, ReceiverLimits, Delivery)},
     * serving TLS with {@code tls} (null: plain TCP). The TLS handshake runs on each connection's own
     * thread (bounded by {@link Connection#HANDSHAKE_TIMEOUT_MS}), never on the accepting thread; a
     * client that does not speak TLS fails it and is logged like any broken stream.
     */
    public static Receiver start(InetSocketAddress bind, FrameHandler handler, ReceiverListener listener, ReceiverLimits limits,
            Delivery delivery, SSLContext tls) throws IOException {
        ServerSocket s = tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(bind, 64);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        Receiver r = new Receiver(s, handler, listener, limits, delivery);
        r.acceptor.start();
        return r;
    }

    /** The port actually bound. */
    public int port() {
        return server.getLocalPort();
    }

    /** The address actually bound. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (!stopping) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (stopping || server.isClosed()) {
                    return;
                }
                // e.g. too many open files: keep serving, but do not spin
                sleepQuietly(50);
                continue;
            }
            total.incrementAndGet();
            // Only this thread adds connections, so the count cannot grow between check and add.
            if (connections.size() >= limits.maxConnections()) {
                refuse(s);
                continue;
            }
            Connection c = new Connection(this, s);
            connections.add(c);
            if (stopping) {
                c.abort();
                connections.remove(c);
                return;
            }
            c.start();
        }
    }

    /** Closes a connection beyond max-connections at once, without reading from it. */
    private void refuse(Socket s) {
        refused.incrementAndGet();
        String peer = s.getInetAddress().getHostAddress() + ":" + s.getPort();
        try {
            s.setSoLinger(true, 0); // a reset: the writer's first write fails instead of vanishing
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        listener.refused(peer, "connection closed unread: " + limits.maxConnections() + " connections are being served (limit max-connections)");
    }

    /**
     * Graceful stop: stops accepting, lets every connection finish the frame it is receiving (up to
     * two seconds), stores it, closes the connection at that frame boundary and closes its file.
     * Returns when all connection threads have ended.
     */
    public void stop() {
        stopping = true;
        stopDeadline = System.nanoTime() + STOP_GRACE_MILLIS * 1_000_000L;
        closeServer();
        for (Connection c : connections) {
            c.join(STOP_GRACE_MILLIS + 5 * POLL_MILLIS);
        }
        for (Connection c : connections) { // still alive: stuck in a write; force
            c.abort();
        }
        joinAcceptor();
    }

    /**
     * Abrupt stop, as if the receiver process were killed: closes the listening socket, every
     * connection socket and every open file at once, finishing nothing. Files keep the whole
     * frames written before (and at worst a partial last frame that readers report as truncated).
     */
    public void abort() {
        stopping = true;
        stopDeadline = System.nanoTime();
        closeServer();
        for (Connection c : connections) {
            c.abort();
        }
        for (Connection c : connections) {
            c.join(1_000);
        }
        joinAcceptor();
    }

    @Override
    public void close() {
        stop();
    }

    private void closeServer() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing: nothing to recover
        }
    }

    private void joinAcceptor() {
        try {
            acceptor.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Current counters. */
    public ReceiverStatus status() {
        Map<UUID, ReceiverStatus.AgentStatus> a = new TreeMap<>();
        agents.forEach((id, c) -> a.put(id, c.status()));
        return new ReceiverStatus(connections.size(), total.get(), failed.get(), refused.get(), a);
    }

    /** The limits this receiver enforces. */
    public ReceiverLimits limits() {
        return limits;
    }

    /**
     * Serves an in-memory stream through the same code as a socket's, on the caller's thread (for
     * tests: volume fuzzing without a socket per input). Returns the connection for inspection.
     */
    Connection serve(java.io.InputStream stream, String peer) {
        Connection c = new Connection(this, peer);
        connections.add(c);
        c.serve(stream);
        return c;
    }

    // ---- used by connections
    boolean stopping() {
        return stopping;
    }

    long stopDeadline() {
        return stopDeadline;
    }

    Delivery delivery() {
        return delivery;
    }

    DeliveryLedger ledger() {
        return ledger;
    }

    FrameHandler handler() {
        return handler;
    }

    ReceiverListener listener() {
        return listener;
    }

    /** The counters of an agent, admitting it if max-agents allows; null if it is new and the limit is reached. */
    AgentCounters admit(UUID id) {
        AgentCounters c = agents.get(id);
        if (c != null) {
            return c;
        }
        synchronized (agents) {
            c = agents.get(id);
            if (c == null && agents.size() < limits.maxAgents()) {
                c = new AgentCounters();
                agents.put(id, c);
            }
            return c;
        }
    }

    void ended(Connection c, boolean withError) {
        if (withError) {
            failed.incrementAndGet();
        }
        connections.remove(c);
    }

    static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Counters of one agent, updated by its connections (several at once when a writer reconnects
     * before the receiver noticed the old connection broke; sequence numbers are never reused, so
     * the frames missing are those between the lowest and highest number that were not counted).
     */
    static final class AgentCounters {
        private long connections;
        private long frames;
        private long bytes;
        private long firstSequence = -1;
        private long lastSequence = -1;
        private boolean trailer;

        synchronized void connected() {
            connections++;
        }

        synchronized void frame(long sequence, int length, boolean isTrailer) {
            if (frames == 0) {
                firstSequence = sequence;
                lastSequence = sequence;
            } else {
                firstSequence = Math.min(firstSequence, sequence);
                lastSequence = Math.max(lastSequence, sequence);
            }
            frames++;
            bytes += length;
            trailer |= isTrailer;
        }

        synchronized ReceiverStatus.AgentStatus status() {
            long span = lastSequence - firstSequence + 1; // <= 0 only on overflow (absurd numbers from a bad writer)
            long missing = frames == 0 ? 0 : Math.max(0, (span <= 0 ? Long.MAX_VALUE : span) - frames);
            return new ReceiverStatus.AgentStatus(connections, frames, bytes, firstSequence, lastSequence, missing, trailer);
        }
    }
}
