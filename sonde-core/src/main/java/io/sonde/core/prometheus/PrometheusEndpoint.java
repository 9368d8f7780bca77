package io.sonde.core.prometheus;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A minimal HTTP server answering {@code GET /metrics} with a Prometheus text exposition made on
 * each scrape by {@code render}; everything else is 404, other methods 405. One daemon thread
 * answers scrapes (Prometheus scrapes rarely), so it never competes with the application.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;

    private PrometheusEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving on {@code bind}:{@code port}.
     *
     * @param port 0: any free port
     * @throws UncheckedIOException if the address cannot be bound (the message names it)
     */
    public static PrometheusEndpoint start(String bind, int port, Supplier<String> render) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve Prometheus metrics on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
        server.createContext("/", ex -> {
            try (ex) {
                if (!ex.getRequestURI().getPath().equals("/metrics")) {
                    ex.sendResponseHeaders(404, -1);
                    return;
                }
                if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                    ex.getResponseHeaders().add("Allow", "GET, HEAD");
                    ex.sendResponseHeaders(405, -1);
                    return;
                }
                byte[] body;
                try {
                    body = render.get().getBytes(StandardCharsets.UTF_8);
                } catch (RuntimeException e) {
                    byte[] msg = ("cannot render the metrics: " + e).getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(500, msg.length);
                    try (OutputStream o = ex.getResponseBody()) {
                        o.write(msg);
                    }
                    return;
                }
                ex.getResponseHeaders().add("Content-Type", PrometheusText.CONTENT_TYPE);
                boolean head = ex.getRequestMethod().equals("HEAD");
                ex.sendResponseHeaders(200, head ? -1 : body.length);
                if (!head) {
                    try (OutputStream o = ex.getResponseBody()) {
                        o.write(body);
                    }
                }
            }
        });
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sonde-prometheus");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        // the server's dispatcher thread inherits the daemon flag of the thread that starts it: a
        // daemon one, so the endpoint never keeps the monitored JVM alive
        Thread starter = new Thread(server::start, "sonde-prometheus-start");
        starter.setDaemon(true);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.stop(0);
            executor.shutdownNow();
            throw new IllegalStateException("interrupted while starting the Prometheus endpoint", e);
        }
        return new PrometheusEndpoint(server, executor);
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
