package io.sonde.core.live.observe;

import io.sonde.api.live.LiveTree;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The observe endpoint (docs/observe-protocol.md): accepts TCP connections on one thread and gives
 * each its own {@link ObserveConnection} (a reader thread for requests, a session with its own
 * dispatcher thread and bounded queues for deliveries). Binds to the loopback address by default;
 * another address only with TLS (the TLS handshake runs on the connection's reader thread, within
 * the HELLO timeout, never on the accepting thread).
 */
public final class ObserveServer implements ObserveService {
    /** Queue capacity (events per priority) of each connection's session. */
    public static final int SESSION_CAPACITY = 4096;

    private final LiveTree tree;
    private final byte[] token;
    /** How long close() waits for the accepting thread to leave accept(); it is signalled, so this bounds a stall only. */
    private static final long ACCEPTOR_EXIT_MILLIS = 10_000;

    private final ServerSocket server;
    private final Thread acceptor;
    private final UUID endpointId = UUID.randomUUID();
    private final boolean tls;
    private final ObserveRelay relay;
    private final List<ObserveConnection> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private volatile boolean closed;
    /** How long close() waits for the acceptor thread to leave accept() (it is woken at once; this bounds a stalled machine). */
    private static final long ACCEPTOR_JOIN_MILLIS = 30_000;

    private ObserveServer(LiveTree tree, String token, InetAddress bind, int port, SSLContext tls, ObserveRelay relay) throws IOException {
        this.tree = tree;
        this.relay = relay;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.server = tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
        server.bind(new InetSocketAddress(bind, port), 50);
        this.tls = tls != null;
        this.acceptor = new Thread(this::acceptLoop, "sonde-observe-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts an endpoint on 127.0.0.1:{@code port} (0: any free port), without TLS. */
    public static ObserveServer start(LiveTree tree, int port, String token) {
        return start(tree, ObserveOptions.of(port, token));
    }

    /**
     * Starts an endpoint as {@code o} says. Refuses, with a message naming the problem, an empty
     * token, a port out of range, an unknown bind address, a non-loopback bind without TLS, and a
     * key store that cannot be read.
     */
    public static ObserveServer start(LiveTree tree, ObserveOptions o) {
        return start(tree, o, null);
    }

    /**
     * Starts an endpoint as {@code o} says that also serves RELAY openings with {@code relay}
     * (null: none, as {@link #start(LiveTree, ObserveOptions)}).
     */
    public static ObserveServer start(LiveTree tree, ObserveOptions o, ObserveRelay relay) {
        String token = o.token();
        int port = o.port();
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("observe token: empty; an endpoint needs a token");
        if (port < 0 || port > 65535) throw new IllegalArgumentException("observe port: " + port + " is not in 0..65535");
        InetAddress bind = bindAddress(o);
        SSLContext tls = o.isTls() ? TlsContexts.server(o.keyStore(), o.keyStorePasswordFile(), "observe") : null;
        try {
            return new ObserveServer(tree, token, bind, port, tls, relay);
        } catch (IOException e) {
            throw new UncheckedIOException("observe endpoint: cannot listen on " + bind.getHostAddress() + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    private static InetAddress bindAddress(ObserveOptions o) {
        if (o.bindAddress() == null) return InetAddress.getLoopbackAddress();
        return TlsContexts.bindAddress("observe endpoint", o.bindAddress(), o.isTls());
    }

    /** Whether connections are TLS. */
    public boolean isTls() {
        return tls;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                if (closed) {
                    s.close(); // came in while close() waited for this thread
                    return;
                }
                ObserveConnection c = new ObserveConnection(this, s);
                connections.add(c);
                c.start();
            } catch (IOException e) {
                if (closed) return;
                // a failed accept concerns that one peer; keep serving the others
            }
        }
    }

    LiveTree tree() {
        return tree;
    }

    /** The relay of RELAY openings, or null. */
    ObserveRelay relay() {
        return relay;
    }

    byte[] token() {
        return token;
    }

    UUID endpointId() {
        return endpointId;
    }

    int nextConnectionId() {
        return connectionIds.incrementAndGet();
    }

    /** The authenticated connections, by id. */
    List<ObserveConnection> authenticated() {
        List<ObserveConnection> out = new ArrayList<>();
        for (ObserveConnection c : connections) if (c.isAuthenticated()) out.add(c);
        out.sort(Comparator.comparingInt(ObserveConnection::id));
        return out;
    }

    /** The authenticated connection of that id, or null. */
    ObserveConnection authenticated(int id) {
        for (ObserveConnection c : connections) if (c.id() == id && c.isAuthenticated()) return c;
        return null;
    }

    void ended(ObserveConnection c) {
        connections.remove(c);
    }

    @Override
    public int port() {
        return server.getLocalPort();
    }

    @Override
    public int connections() {
        return authenticated().size();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        // The JDK's close() returns while a thread blocked in accept() still holds the listening socket in the kernel
        // (until it is scheduled and leaves the call), so a connection could still be accepted after close() returned:
        // wait for the acceptor, so the port is closed when this returns.
        if (Thread.currentThread() != acceptor) {
            try {
                acceptor.join(ACCEPTOR_EXIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (ObserveConnection c : connections) c.close();
    }
}
