package io.sonde.core.live.observe;

import io.sonde.api.live.LiveTree;
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

/**
 * The observe endpoint (docs/observe-protocol.md): accepts TCP connections on one thread and gives
 * each its own {@link ObserveConnection} (a reader thread for requests, a session with its own
 * dispatcher thread and bounded queues for deliveries). Binds to the loopback address by default.
 */
public final class ObserveServer implements ObserveService {
    /** Queue capacity (events per priority) of each connection's session. */
    public static final int SESSION_CAPACITY = 4096;

    private final LiveTree tree;
    private final byte[] token;
    private final ServerSocket server;
    private final Thread acceptor;
    private final UUID endpointId = UUID.randomUUID();
    private final List<ObserveConnection> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private volatile boolean closed;

    private ObserveServer(LiveTree tree, String token, InetAddress bind, int port) throws IOException {
        if (token == null || token.isEmpty()) throw new IllegalArgumentException("observe token: empty; an endpoint needs a token");
        if (port < 0 || port > 65535) throw new IllegalArgumentException("observe port: " + port + " is not in 0..65535");
        this.tree = tree;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(bind, port), 50);
        this.acceptor = new Thread(this::acceptLoop, "sonde-observe-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts an endpoint on 127.0.0.1:{@code port} (0: any free port). */
    public static ObserveServer start(LiveTree tree, int port, String token) {
        try {
            return new ObserveServer(tree, token, InetAddress.getLoopbackAddress(), port);
        } catch (IOException e) {
            throw new UncheckedIOException("observe endpoint: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
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
        for (ObserveConnection c : connections) c.close();
    }
}
