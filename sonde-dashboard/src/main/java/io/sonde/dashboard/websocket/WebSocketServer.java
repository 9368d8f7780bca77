package io.sonde.dashboard.websocket;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A small WebSocket server (RFC 6455, server side: the opening handshake, text messages, ping and
 * close; no extensions, no subprotocols), one reader thread per connection. Written for the
 * dashboard's live pages because the JDK's HTTP server cannot hand over a connection after a 101
 * answer; it listens on a port of its own beside the HTTP server.
 *
 * <p>Requests for another path than the one served get 404; an upgrade whose {@code Origin} the
 * {@code originAllowed} test refuses gets 403 (so a page of another site cannot use a dashboard it
 * can reach).
 */
public final class WebSocketServer implements AutoCloseable {
    /** How long a client has to send its upgrade request. */
    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;

    private final ServerSocket server;
    private final String path;
    private final Predicate<WebSocketHandshake.Request> originAllowed;
    private final WebSocketHandler handler;
    private final Set<WebSocketConnection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private final Thread acceptor = new Thread(this::accept, "sonde-websocket-accept");

    private WebSocketServer(ServerSocket server, String path, Predicate<WebSocketHandshake.Request> originAllowed, WebSocketHandler handler) {
        acceptor.setDaemon(true);
        this.server = server;
        this.path = path;
        this.originAllowed = originAllowed;
        this.handler = handler;
    }

    /**
     * Listens on {@code address} (port 0: a free one) for WebSocket upgrades of {@code path}.
     *
     * @param originAllowed decides whether an upgrade request may open (it sees the headers, e.g. {@code Origin} and {@code Host})
     * @throws IOException if the address cannot be bound (the message names it)
     */
    public static WebSocketServer start(InetSocketAddress address, String path, Predicate<WebSocketHandshake.Request> originAllowed,
            WebSocketHandler handler) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.bind(address, 64);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot listen on " + address.getHostString() + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
        WebSocketServer ws = new WebSocketServer(s, path, originAllowed, handler);
        ws.acceptor.start();
        return ws;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Connections open now. */
    public int connections() {
        return open.size();
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (server.isClosed()) {
                closeQuietly(socket); // came in while close() waited for this thread
                return;
            }
            Thread t = new Thread(() -> serve(socket), "sonde-websocket-" + threads.incrementAndGet());
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket socket) {
        WebSocketConnection c;
        try {
            socket.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            WebSocketHandshake.Request r;
            try {
                r = WebSocketHandshake.read(socket.getInputStream());
                String target = r.path().contains("?") ? r.path().substring(0, r.path().indexOf('?')) : r.path();
                if (!target.equals(path)) throw refused(404, "no WebSocket at " + target + " (the live pages use " + path + ")");
                if (!originAllowed.test(r)) throw refused(403, "origin " + r.header("Origin") + " may not open this WebSocket");
            } catch (WebSocketHandshake.Refused e) {
                out.write(WebSocketHandshake.refuse(e.status(), e.getMessage()));
                out.flush();
                socket.close();
                return;
            }
            out.write(WebSocketHandshake.accept(r));
            out.flush();
            socket.setSoTimeout(0); // a page may stay quiet for as long as it watches
            c = new WebSocketConnection(socket, r.path());
        } catch (IOException e) {
            closeQuietly(socket);
            return;
        }
        open.add(c);
        try {
            handler.onOpen(c);
            c.run(handler);
        } finally {
            open.remove(c);
            c.closeSocket(); // also when onOpen failed and the reader never ran
        }
    }

    private static WebSocketHandshake.Refused refused(int status, String message) {
        return new WebSocketHandshake.Refused(status, message);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    /** Stops listening and closes every connection with 1001 (going away). */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing to do
        }
        // close() returns while a thread blocked in accept() still holds the listening socket in the kernel: wait for it,
        // so the port is closed when this returns
        if (Thread.currentThread() != acceptor) {
            try {
                acceptor.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (WebSocketConnection c : open) {
            c.close(1001, "dashboard stopping");
            c.closeSocket();
        }
    }
}
