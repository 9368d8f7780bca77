package io.sonde.dashboard.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sonde.dashboard.live.LiveLink;
import io.sonde.collector.operations.OperationWindow;
import io.sonde.dashboard.live.LivePages;
import io.sonde.dashboard.operations.OperationsStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The dashboard's HTTP server, on the JDK's {@code com.sun.net.httpserver}: the page and its
 * scripts and styles from the jar ({@code /io/sonde/dashboard/web/}), and {@code /api/...} answered
 * by an {@link Api} as JSON. Only GET and HEAD are served: nothing here changes state. With a
 * {@link LiveLink} the live pages' WebSocket server runs beside it ({@link LivePages}); management
 * actions go over that WebSocket and carry the agent's token, typed by the user. A collector's
 * server also answers {@code /metrics} in the Prometheus text format (docs/prometheus.md).
 */
public final class DashboardServer implements AutoCloseable {
    private static final String WEB = "/io/sonde/dashboard/web/";
    /** Names of the static files: no path climbing, only the kinds the page uses. */
    private static final Pattern STATIC = Pattern.compile("[a-z0-9_-]+(/[a-z0-9_-]+)*\\.(js|css|html|svg)");
    private static final Map<String, String> TYPES = Map.of(
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8",
            "html", "text/html; charset=utf-8", "svg", "image/svg+xml");
    /** The Prometheus text exposition format's Content-Type. */
    private static final String METRICS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpServer http;
    private final ExecutorService workers;
    private final Api api;
    private final Supplier<String> metrics;
    private volatile LivePages live;
    private volatile OperationsStream operations;

    private DashboardServer(HttpServer http, ExecutorService workers, Api api, Supplier<String> metrics) {
        this.http = http;
        this.workers = workers;
        this.api = api;
        this.metrics = metrics;
    }

    /**
     * Starts serving on {@code address} with the live pages reaching agents through {@code link}
     * (a WebSocket server on a free port of the same address; {@code GET /api/live} says which).
     *
     * @param metrics as for {@link #start(InetSocketAddress, Api, Supplier)}, may be null
     * @param link    null: no live pages ({@code /api/live} says so)
     * @throws IOException if an address cannot be bound (the message names it)
     */
    public static DashboardServer start(InetSocketAddress address, Api api, Supplier<String> metrics, LiveLink link) throws IOException {
        return start(address, api, metrics, link, null);
    }

    /**
     * As {@link #start(InetSocketAddress, Api, Supplier, LiveLink)}, and with a collector's live
     * per-operation aggregates: the operations page's live range ({@link OperationsStream}, a
     * WebSocket server on a free port of the same address; {@code GET /api/live-operations} says which).
     *
     * @param window null: no live range ({@code /api/live-operations} says why)
     */
    public static DashboardServer start(InetSocketAddress address, Api api, Supplier<String> metrics, LiveLink link, OperationWindow window)
            throws IOException {
        DashboardServer s = start(address, api, metrics);
        try {
            if (link != null) s.live = LivePages.start(address.getAddress(), s.port(), link);
            if (window != null) s.operations = OperationsStream.start(address.getAddress(), s.port(), window);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * Starts serving on {@code address} (port 0: a free one).
     *
     * @throws IOException if the address cannot be bound (the message names it)
     */
    public static DashboardServer start(InetSocketAddress address, Api api) throws IOException {
        return start(address, api, null);
    }

    /**
     * Starts serving on {@code address}, with {@code GET /metrics} answered by {@code metrics}.
     *
     * @param metrics the exposition in the Prometheus text format (version 0.0.4), asked at each scrape; null: no {@code /metrics}
     * @throws IOException if the address cannot be bound (the message names it)
     */
    public static DashboardServer start(InetSocketAddress address, Api api, Supplier<String> metrics) throws IOException {
        HttpServer http;
        try {
            http = HttpServer.create(address, 64);
        } catch (IOException e) {
            throw new IOException("cannot listen on " + address.getHostString() + ":" + address.getPort() + ": " + e.getMessage(), e);
        }
        AtomicInteger n = new AtomicInteger();
        // a few threads: an on-demand analysis pass must not hold up the page's other requests
        ExecutorService workers = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "sonde-dashboard-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        DashboardServer s = new DashboardServer(http, workers, api, metrics);
        http.createContext("/", s::handle);
        http.setExecutor(workers);
        http.start();
        return s;
    }

    /** The port served (the one chosen when started with port 0). */
    public int port() {
        return http.getAddress().getPort();
    }

    public InetSocketAddress address() {
        return http.getAddress();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                sendJson(ex, 405, error("method " + method + " not allowed: the dashboard answers GET"));
                return;
            }
            String path = ex.getRequestURI().getPath();
            if (path.equals("/metrics") && metrics != null) {
                serveMetrics(ex);
            } else if (path.equals("/api/live")) {
                serveLive(ex);
            } else if (path.equals("/api/live-operations")) {
                OperationsStream o = operations;
                ex.getResponseHeaders().set("Cache-Control", "no-store");
                sendJson(ex, 200, (ObjectNode) (o != null ? o.describe() : OperationsStream.unavailable()));
            } else if (path.startsWith("/api/")) {
                serveApi(ex, path);
            } else if (path.equals("/") || path.equals("/index.html")) {
                serveStatic(ex, "index.html");
            } else if (path.startsWith("/static/") && STATIC.matcher(path.substring(8)).matches()) {
                serveStatic(ex, path.substring(8));
            } else {
                sendText(ex, 404, "text/plain; charset=utf-8", "not found: " + path + "\n");
            }
        }
    }

    private void serveApi(HttpExchange ex, String path) throws IOException {
        byte[] body;
        int status = 200;
        try {
            body = MAPPER.writeValueAsBytes(api.get(path, new Query(ex.getRequestURI().getRawQuery())));
        } catch (ApiError e) {
            status = e.status();
            body = MAPPER.writeValueAsBytes(error(e.getMessage()));
        } catch (RuntimeException e) {
            status = 500;
            body = MAPPER.writeValueAsBytes(error("internal error: " + e));
        }
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        send(ex, status, "application/json; charset=utf-8", body);
    }

    private void serveLive(HttpExchange ex) throws IOException {
        LivePages l = live;
        ObjectNode body = l != null ? (ObjectNode) l.describe() : JsonNodeFactory.instance.objectNode().put("available", false)
                .put("reason", "no agent to watch: start the dashboard with --observe HOST:PORT --token-file F (e.g. against ./sonde demo --live)");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        sendJson(ex, 200, body);
    }

    private void serveMetrics(HttpExchange ex) throws IOException {
        String text;
        try {
            text = metrics.get();
        } catch (RuntimeException e) {
            sendText(ex, 500, "text/plain; charset=utf-8", "internal error: " + e + "\n");
            return;
        }
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        sendText(ex, 200, METRICS_TYPE, text);
    }

    private static void serveStatic(HttpExchange ex, String name) throws IOException {
        try (InputStream in = DashboardServer.class.getResourceAsStream(WEB + name)) {
            if (in == null) {
                sendText(ex, 404, "text/plain; charset=utf-8", "not found: " + name + "\n");
                return;
            }
            String ext = name.substring(name.lastIndexOf('.') + 1);
            send(ex, 200, TYPES.get(ext), in.readAllBytes());
        }
    }

    private static ObjectNode error(String message) {
        return JsonNodeFactory.instance.objectNode().put("error", message);
    }

    private static void sendJson(HttpExchange ex, int status, ObjectNode body) throws IOException {
        send(ex, status, "application/json; charset=utf-8", MAPPER.writeValueAsBytes(body));
    }

    private static void sendText(HttpExchange ex, int status, String type, String text) throws IOException {
        send(ex, status, type, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops serving (waits up to a second for requests under way). */
    @Override
    public void close() {
        LivePages l = live;
        if (l != null) l.close();
        OperationsStream o = operations;
        if (o != null) o.close();
        http.stop(1);
        workers.shutdownNow();
    }
}
