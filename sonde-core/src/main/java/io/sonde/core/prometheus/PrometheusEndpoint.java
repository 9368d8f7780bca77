package io.sonde.core.prometheus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * A minimal HTTP/1.1 server answering {@code GET /metrics} (and {@code HEAD}) with a Prometheus
 * text exposition made on each scrape by {@code render}; other paths get 404, other methods 405,
 * and every answer closes its connection. Written on plain sockets of {@code java.base}, not the
 * JDK's {@code com.sun.net.httpserver}: the agent's classes are loaded where that module is not
 * visible (and a jlinked runtime may not have it). One daemon thread accepts and answers scrapes
 * one at a time (Prometheus scrapes rarely), so it never keeps the JVM alive nor competes with the
 * application; a client gets {@value #READ_TIMEOUT_MILLIS} ms to send its request head of at most
 * {@value #MAX_HEAD_BYTES} bytes.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    static final int READ_TIMEOUT_MILLIS = 5_000;
    static final int MAX_HEAD_BYTES = 8_192;

    private final ServerSocket server;
    private final Supplier<String> render;
    private final Thread thread;
    private final int readTimeoutMillis;
    /** The connection being answered, so that close() can end it rather than wait for its read timeout. */
    private volatile Socket current;

    private PrometheusEndpoint(ServerSocket server, Supplier<String> render, int readTimeoutMillis) {
        this.server = server;
        this.render = render;
        this.readTimeoutMillis = readTimeoutMillis;
        this.thread = new Thread(this::serve, "sonde-prometheus");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts serving on {@code bind}:{@code port}.
     *
     * @param port 0: any free port
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    public static PrometheusEndpoint start(String bind, int port, Supplier<String> render) {
        return start(bind, port, render, READ_TIMEOUT_MILLIS);
    }

    static PrometheusEndpoint start(String bind, int port, Supplier<String> render, int readTimeoutMillis) {
        ServerSocket s = null;
        try {
            s = new ServerSocket();
            s.bind(new InetSocketAddress(InetAddress.getByName(bind), port), 16);
            return new PrometheusEndpoint(s, render, readTimeoutMillis);
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // the bind failed: nothing to release beyond the socket
                }
            }
            throw new UncheckedIOException("cannot serve Prometheus metrics on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The bound port. */
    public int port() {
        return server.getLocalPort();
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public void close() {
        try {
            server.close(); // ends accept(): the thread exits
        } catch (IOException ignored) {
            // closing a listening socket: nothing else to do
        }
        Socket scrape = current;
        if (scrape != null) {
            try {
                scrape.close(); // a scrape in progress (or a client that sends nothing) must not hold close() up
            } catch (IOException ignored) {
                // the scrape ends with an error on its side: nothing else to do
            }
        }
        // close() returns while a thread blocked in accept() still holds the listening socket in the kernel; waiting for
        // it (at most one scrape's read timeout) makes the port closed when this returns
        if (Thread.currentThread() != thread) {
            try {
                thread.join(2L * readTimeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether a connection is being answered now (tests). */
    boolean answering() {
        return current != null;
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket c = server.accept()) {
                current = c;
                if (server.isClosed()) return; // came in while close() waited for this thread
                c.setSoTimeout(readTimeoutMillis);
                answer(c);
            } catch (SocketException e) {
                if (server.isClosed()) return;
            } catch (IOException | RuntimeException e) {
                // one bad client (timeout, reset, garbage): the next scrape is served
            } finally {
                current = null;
            }
        }
    }

    private void answer(Socket c) throws IOException {
        String head = readHead(c.getInputStream());
        OutputStream out = c.getOutputStream();
        if (head == null) {
            respond(out, 400, "Bad Request", "text/plain; charset=utf-8", "bad request\n".getBytes(StandardCharsets.UTF_8), false);
            return;
        }
        String[] line = head.substring(0, head.indexOf('\r') < 0 ? head.length() : head.indexOf('\r')).split(" ");
        if (line.length != 3 || !line[2].startsWith("HTTP/")) {
            respond(out, 400, "Bad Request", "text/plain; charset=utf-8", "bad request line\n".getBytes(StandardCharsets.UTF_8), false);
            return;
        }
        String method = line[0];
        String path = line[1];
        int query = path.indexOf('?');
        if (query >= 0) path = path.substring(0, query);
        if (!path.equals("/metrics")) {
            respond(out, 404, "Not Found", "text/plain; charset=utf-8", "only /metrics is served\n".getBytes(StandardCharsets.UTF_8), false);
            return;
        }
        boolean headOnly = method.equals("HEAD");
        if (!headOnly && !method.equals("GET")) {
            respond(out, 405, "Method Not Allowed", "text/plain; charset=utf-8", "GET or HEAD\n".getBytes(StandardCharsets.UTF_8), false);
            return;
        }
        byte[] body;
        try {
            body = render.get().getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            respond(out, 500, "Internal Server Error", "text/plain; charset=utf-8",
                    ("cannot render the metrics: " + e + "\n").getBytes(StandardCharsets.UTF_8), false);
            return;
        }
        respond(out, 200, "OK", PrometheusText.CONTENT_TYPE, body, headOnly);
    }

    /** The request head up to the blank line, or null if it is too long or the client stopped early. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int matched = 0; // of "\r\n\r\n"
        while (head.size() < MAX_HEAD_BYTES) {
            int b = in.read();
            if (b < 0) return null;
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
            if (matched == 4) return head.toString(StandardCharsets.ISO_8859_1);
        }
        return null;
    }

    private static void respond(OutputStream out, int status, String reason, String type, byte[] body, boolean headOnly) throws IOException {
        String h = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n" + (status == 405 ? "Allow: GET, HEAD\r\n" : "") + "\r\n";
        out.write(h.getBytes(StandardCharsets.ISO_8859_1));
        if (!headOnly) out.write(body);
        out.flush();
    }
}
