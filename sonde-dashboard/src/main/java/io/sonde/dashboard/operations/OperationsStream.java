package io.sonde.dashboard.operations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.collector.operations.OperationWindow;
import io.sonde.dashboard.live.LivePages;
import io.sonde.dashboard.websocket.WebSocketConnection;
import io.sonde.dashboard.websocket.WebSocketHandler;
import io.sonde.dashboard.websocket.WebSocketServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The live operations view's server side ({@code sonde collector --http}): a WebSocket server (a
 * port of its own, path {@link #PATH}) that pushes each subscribed page what changed in the
 * collector's {@link OperationWindow} once per period. Messages (docs/dashboard.md, "Live
 * operations"): page → server {@code {"op":"subscribe","rangeSeconds":R,"periodMs":P}}; server →
 * page {@code operations} deliveries ({@code full} on the first one after a subscribe) and
 * {@code error}.
 *
 * <p>Each subscribed page has a sender thread of its own that sleeps a period, takes the changes
 * since its last delivery and writes them: a page that reads slowly holds up only its own thread,
 * the deliveries to it become larger and rarer, and the collector's ingest never waits (the window
 * is fed by a queued handler).
 */
public final class OperationsStream implements WebSocketHandler, AutoCloseable {
    /** The WebSocket's path. */
    public static final String PATH = "/operations";
    /** The ranges the page offers, in seconds; the longest is the window's ring. */
    public static final int[] RANGES_SECONDS = {60, 300, 900};
    static final long MIN_PERIOD_MS = 250;
    static final long DEFAULT_PERIOD_MS = 1000;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final OperationWindow window;
    private volatile WebSocketServer sockets;

    private OperationsStream(OperationWindow window) {
        this.window = window;
    }

    /** Starts the WebSocket server on a free port of {@code address} for pages served from {@code httpPort}. */
    public static OperationsStream start(InetAddress address, int httpPort, OperationWindow window) throws IOException {
        OperationsStream s = new OperationsStream(window);
        s.sockets = WebSocketServer.start(new InetSocketAddress(address, 0), PATH, r -> LivePages.sameDashboard(r, httpPort), s);
        return s;
    }

    /** {@code GET /api/live-operations}: where the WebSocket is and the ranges offered. */
    public JsonNode describe() {
        ObjectNode o = JSON.objectNode().put("available", true).put("websocketPort", sockets.port()).put("path", PATH)
                .put("periodMs", DEFAULT_PERIOD_MS);
        ArrayNode ranges = o.putArray("rangesSeconds");
        for (int r : RANGES_SECONDS) ranges.add(r);
        return o;
    }

    /** {@code GET /api/live-operations} of a dashboard without a collector. */
    public static JsonNode unavailable() {
        return JSON.objectNode().put("available", false)
                .put("reason", "live operations need a collector: run sonde collector --port N --out DIR --http PORT and open its dashboard;"
                        + " this dashboard shows a recorded log");
    }

    public int port() {
        return sockets.port();
    }

    @Override
    public void onOpen(WebSocketConnection c) {}

    @Override
    public void onText(WebSocketConnection c, String message) {
        JsonNode request;
        try {
            request = MAPPER.readTree(message);
        } catch (IOException e) {
            sendError(c, "not JSON: " + e.getMessage());
            return;
        }
        String op = request.path("op").asText("");
        if (!op.equals("subscribe")) {
            sendError(c, "op: unknown operation '" + op + "' (subscribe)");
            return;
        }
        long period = request.path("periodMs").asLong(DEFAULT_PERIOD_MS);
        int range = request.path("rangeSeconds").asInt(RANGES_SECONDS[0]);
        if (period < MIN_PERIOD_MS || period > 60_000) {
            sendError(c, "periodMs: must be between " + MIN_PERIOD_MS + " and 60000, got " + period);
            return;
        }
        if (range < 1 || range > RANGES_SECONDS[RANGES_SECONDS.length - 1]) {
            sendError(c, "rangeSeconds: must be between 1 and " + RANGES_SECONDS[RANGES_SECONDS.length - 1] + ", got " + range);
            return;
        }
        stop(c);
        Sender sender = new Sender(c, range, period);
        c.attach(sender);
        sender.start();
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        stop(c);
    }

    private static void stop(WebSocketConnection c) {
        if (c.attachment() instanceof Sender s) s.interrupt();
    }

    /** The delivery with the seconds changed since {@code version} and not older than the range. */
    ObjectNode delivery(long version, int rangeSeconds, boolean full) {
        OperationWindow.Changes ch = window.changesSince(version, Long.MIN_VALUE);
        long from = ch.newestSecond() - rangeSeconds + 1;
        ObjectNode o = JSON.objectNode().put("type", "operations").put("version", ch.version()).put("full", full)
                .put("newestSecond", ch.newestSecond()).put("rangeSeconds", rangeSeconds).put("late", ch.lateExecutions())
                .put("rows", ch.rows()).put("other", ch.otherExecutions());
        ArrayNode seconds = o.putArray("seconds");
        for (OperationWindow.Second s : ch.seconds()) {
            if (s.epochSecond() < from) continue;
            seconds.addObject().put("agent", s.agent()).put("operation", s.operation()).put("second", s.epochSecond())
                    .put("calls", s.calls()).put("errors", s.errors()).put("p50", s.p50()).put("p95", s.p95()).put("p99", s.p99())
                    .put("max", s.max()).put("sealed", s.sealed());
        }
        return o;
    }

    /** One page's deliveries: the full range at once, then what changed, once per period. */
    private final class Sender extends Thread {
        private final WebSocketConnection c;
        private final int range;
        private final long periodMs;

        Sender(WebSocketConnection c, int range, long periodMs) {
            super("sonde-dashboard-operations");
            setDaemon(true);
            this.c = c;
            this.range = range;
            this.periodMs = periodMs;
        }

        @Override
        public void run() {
            long version = 0;
            boolean full = true;
            try {
                while (!isInterrupted() && c.isOpen()) {
                    ObjectNode d = delivery(version, range, full);
                    // nothing new: no message (the page keeps its last state)
                    if (full || !d.path("seconds").isEmpty()) c.sendText(MAPPER.writeValueAsString(d));
                    version = d.path("version").asLong();
                    full = false;
                    Thread.sleep(periodMs);
                }
            } catch (InterruptedException e) {
                // unsubscribed or the page left
            } catch (IOException e) {
                // the page is gone; the server closes the connection
            }
        }
    }

    private static void sendError(WebSocketConnection c, String message) {
        try {
            c.sendText(MAPPER.writeValueAsString(JSON.objectNode().put("type", "error").put("message", message)));
        } catch (IOException e) {
            // the page is gone
        }
    }

    @Override
    public void close() {
        sockets.close();
    }
}
