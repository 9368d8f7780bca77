package io.sonde.collector.receive;

import io.sonde.collector.archive.FrameHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
    private final Thread acceptor;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final Map<UUID, AgentCounters> agents = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean stopping;
    private volatile long stopDeadline;

    private Receiver(ServerSocket server, FrameHandler handler, ReceiverListener listener) {
        this.server = server;
        this.handler = handler;
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "sonde-receiver-accept-" + server.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /** Binds to the loopback interface on the given port (0: any free port) and starts accepting. */
    public static Receiver start(int port, FrameHandler handler, ReceiverListener listener) throws IOException {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), handler, listener);
    }

    /** Binds to the given address and starts accepting. */
    public static Receiver start(InetSocketAddress bind, FrameHandler handler, ReceiverListener listener) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(bind, 64);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        Receiver r = new Receiver(s, handler, listener);
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
        agents.forEach((id, c) -> a.put(id, new ReceiverStatus.AgentStatus(c.connections.get(), c.frames.get(), c.bytes.get())));
        return new ReceiverStatus(connections.size(), total.get(), failed.get(), a);
    }

    // ---- used by connections
    boolean stopping() {
        return stopping;
    }

    long stopDeadline() {
        return stopDeadline;
    }

    FrameHandler handler() {
        return handler;
    }

    ReceiverListener listener() {
        return listener;
    }

    AgentCounters agent(UUID id) {
        return agents.computeIfAbsent(id, k -> new AgentCounters());
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

    /** Counters of one agent, updated by its connections. */
    static final class AgentCounters {
        final AtomicLong connections = new AtomicLong();
        final AtomicLong frames = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
    }
}
