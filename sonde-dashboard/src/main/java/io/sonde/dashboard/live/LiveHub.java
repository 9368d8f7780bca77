package io.sonde.dashboard.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.dashboard.websocket.WebSocketConnection;
import io.sonde.dashboard.websocket.WebSocketHandler;
import io.sonde.format.observe.AttributeInfo;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObjectInfo;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.observer.ObserveException;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The server side of the live pages: each page's WebSocket is served here, and the dashboard
 * acts as an observer of the agent for it. The page sends JSON requests; the hub answers and
 * forwards the agent's deliveries as JSON. Messages (docs/dashboard.md, "Live pages"):
 *
 * <ul>
 *   <li>{@code {"op":"watch","agent":A,"pattern":P,"periodMs":N}}: one observer connection for the
 *       page (the previous watch of the page ends), answered with {@code tree} (objects and
 *       attributes), {@code values} (every attribute read now), {@code watching} once subscribed, then {@code events} deliveries
 *       of a subscription with <em>periodic latest-value</em> QoS, so however busy the agent, the page
 *       gets at most one delivery per period with one value per attribute (object events all);</li>
 *   <li>{@code {"op":"manage","id":I,"agent":A,"action":"probes-off"|"probes-on"|"suspend"|"resume",
 *       "pattern":P,"token":T}}: one short connection with the token the user typed, answered with
 *       {@code {"type":"result","id":I,"ok":…,"changed":…,"message":…}}; a wrong token is refused
 *       by the agent and the message says so;</li>
 *   <li>{@code {"op":"probes","id":I,"agent":A,"pattern":P,"offset":O,"limit":N}}: one page of the
 *       agent's method probes (observe protocol PROBE_LIST, read with the dashboard's own token like
 *       the tree: listing changes nothing), answered with {@code {"type":"probes","id":I,"total":T,
 *       "offset":O,"truncated":B,"probes":[{"id","name","signature","on","origin","detail"}]}}, or
 *       {@code {"type":"result","id":I,"ok":false,"message":…}} saying why not (no agent in that
 *       process, an agent of an older protocol version).</li>
 * </ul>
 */
public final class LiveHub implements WebSocketHandler {
    /** The shortest period a page may ask for: the browser is never sent more than this rate. */
    static final long MIN_PERIOD_MS = 250;
    static final long DEFAULT_PERIOD_MS = 1000;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final LiveLink link;

    public LiveHub(LiveLink link) {
        this.link = link;
    }

    @Override
    public void onOpen(WebSocketConnection c) {
        send(c, JSON.objectNode().put("type", "hello").put("who", link.whoMayAct()));
    }

    @Override
    public void onText(WebSocketConnection c, String message) {
        JsonNode request;
        try {
            request = MAPPER.readTree(message);
        } catch (IOException e) {
            sendError(c, null, "not JSON: " + e.getMessage());
            return;
        }
        String op = request.path("op").asText("");
        switch (op) {
            case "watch" -> watch(c, request);
            case "manage" -> manage(c, request);
            case "probes" -> probes(c, request);
            default -> sendError(c, request.get("id"), "op: unknown operation '" + op + "' (watch, manage or probes)");
        }
    }

    @Override
    public void onClose(WebSocketConnection c, int code, String reason) {
        endWatch(c);
    }

    private void watch(WebSocketConnection c, JsonNode request) {
        endWatch(c);
        String agent = request.path("agent").asText("");
        String pattern = request.path("pattern").asText("**");
        long period = request.path("periodMs").asLong(DEFAULT_PERIOD_MS);
        if (period < MIN_PERIOD_MS || period > 60_000) {
            sendError(c, null, "periodMs: must be between " + MIN_PERIOD_MS + " and 60000, got " + period);
            return;
        }
        ObserverClient client;
        try {
            client = link.connect(agent, null, new Forwarder(c));
        } catch (IOException e) {
            sendError(c, null, "cannot observe " + agent + ": " + e.getMessage());
            return;
        }
        c.attach(client);
        try {
            ObserverClient.Listing listing = client.list(pattern);
            ObjectNode tree = JSON.objectNode().put("type", "tree").put("agent", agent).put("pattern", pattern).put("periodMs", period);
            ArrayNode objects = tree.putArray("objects");
            for (ObjectInfo o : listing.objects()) objects.addObject().put("id", o.id()).put("path", o.path()).put("type", o.type());
            ArrayNode attributes = tree.putArray("attributes");
            for (AttributeInfo a : listing.attributes()) {
                attributes.addObject().put("id", a.id()).put("path", a.path()).put("type", a.valueType()).put("sensor", a.sensor())
                        .put("unit", a.unit()).put("description", a.description());
            }
            send(c, tree);
            List<AttributeReading> now = client.get(pattern);
            ObjectNode values = JSON.objectNode().put("type", "values");
            ArrayNode list = values.putArray("values");
            for (AttributeReading r : now) putValue(list.addObject().put("path", r.path()).put("timeMs", r.timeNanos() / 1e6), r.value());
            send(c, values);
            int id = client.subscribe(pattern, ObserverClient.ALL_KINDS, DeliveryQos.periodicLatest(Duration.ofMillis(period)));
            send(c, JSON.objectNode().put("type", "watching").put("subscription", id).put("periodMs", period));
        } catch (IOException e) {
            endWatch(c);
            sendError(c, null, "observing " + agent + " failed: " + e.getMessage());
        }
    }

    private void manage(WebSocketConnection c, JsonNode request) {
        JsonNode id = request.get("id");
        String agent = request.path("agent").asText("");
        String action = request.path("action").asText("");
        String pattern = request.path("pattern").asText("");
        String token = request.path("token").asText("");
        if (!List.of("probes-on", "probes-off", "suspend", "resume").contains(action)) {
            sendError(c, id, "action: unknown '" + action + "' (probes-on, probes-off, suspend or resume)");
            return;
        }
        if (pattern.isBlank()) {
            sendError(c, id, "pattern: give a pattern");
            return;
        }
        if (token.isEmpty()) {
            sendError(c, id, "token: management needs the agent's observe token; type it in the token field");
            return;
        }
        try (ObserverClient client = link.connect(agent, token, (sub, events) -> {})) {
            int changed = switch (action) {
                case "probes-on" -> client.enableProbes(pattern);
                case "probes-off" -> client.disableProbes(pattern);
                case "suspend" -> client.suspend(pattern);
                default -> client.resume(pattern);
            };
            String what = action.startsWith("probes") ? "method probe(s)" : "sensor(s)";
            send(c, result(id, true, action + " " + pattern + ": " + changed + " " + what + " changed").put("changed", changed));
        } catch (ObserveException e) {
            String message = switch (e.code()) {
                case ObserveProtocol.ERR_BAD_TOKEN -> "token refused by " + agent + ": it is not the agent's observe token; nothing was changed";
                case ObserveProtocol.ERR_UNAVAILABLE -> agent + " has no method probes to switch (no Sonde agent in that process): " + e.getMessage();
                default -> action + " " + pattern + " refused: " + e.getMessage();
            };
            send(c, result(id, false, message).put("code", e.code()));
        } catch (IOException e) {
            send(c, result(id, false, "cannot reach " + agent + ": " + e.getMessage()));
        }
    }

    /** The largest page a page may ask for: the protocol's. */
    static final int MAX_PROBE_PAGE = ObserveProtocol.MAX_PROBE_PAGE;

    private void probes(WebSocketConnection c, JsonNode request) {
        JsonNode id = request.get("id");
        String agent = request.path("agent").asText("");
        String pattern = request.path("pattern").asText("*").strip();
        int offset = request.path("offset").asInt(0);
        int limit = request.path("limit").asInt(200);
        if (pattern.isEmpty()) pattern = "*";
        if (offset < 0 || limit < 1 || limit > MAX_PROBE_PAGE) {
            sendError(c, id, "offset must be 0 or more and limit between 1 and " + MAX_PROBE_PAGE + ", got " + offset + " and " + limit);
            return;
        }
        try (ObserverClient client = link.connect(agent, null, (sub, events) -> {})) {
            ProbeListing page = client.probes(pattern, offset, limit);
            ObjectNode m = JSON.objectNode().put("type", "probes").put("agent", agent).put("pattern", pattern).put("total", page.total())
                    .put("offset", page.offset()).put("truncated", page.truncated());
            m.set("id", id);
            ArrayNode list = m.putArray("probes");
            for (ProbeInfo p : page.probes()) {
                list.addObject().put("id", p.id()).put("name", p.name()).put("signature", p.signature()).put("on", p.on())
                        .put("origin", p.origin().name()).put("detail", p.detail());
            }
            send(c, m);
        } catch (ObserveException e) {
            String message = switch (e.code()) {
                case ObserveProtocol.ERR_UNAVAILABLE -> agent + " has no method probes to list (no Sonde agent in that process): " + e.getMessage();
                case ObserveProtocol.ERR_VERSION, ObserveProtocol.ERR_NOT_IN_VERSION ->
                    agent + " speaks an older observe protocol, without probe listing: " + e.getMessage();
                default -> "listing the probes of " + agent + " failed: " + e.getMessage();
            };
            send(c, result(id, false, message).put("code", e.code()));
        } catch (IOException e) {
            send(c, result(id, false, "cannot reach " + agent + ": " + e.getMessage()));
        }
    }

    private static ObjectNode result(JsonNode id, boolean ok, String message) {
        ObjectNode r = JSON.objectNode().put("type", "result");
        r.set("id", id);
        return r.put("ok", ok).put("message", message);
    }

    private static void endWatch(WebSocketConnection c) {
        if (c.attachment() instanceof ObserverClient client) {
            c.attach(null);
            client.close();
        }
    }

    /** Puts {@code value} as "value": numbers, booleans and strings as such; NaN and infinities as strings. */
    private static void putValue(ObjectNode node, Object value) {
        if (value instanceof Long l) node.put("value", l);
        else if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) node.put("value", d.toString());
            else node.put("value", d);
        } else if (value instanceof Boolean b) node.put("value", b);
        else if (value == null) node.putNull("value");
        else node.put("value", value.toString());
    }

    private static void sendError(WebSocketConnection c, JsonNode id, String message) {
        ObjectNode e = JSON.objectNode().put("type", "error");
        if (id != null) e.set("id", id);
        send(c, e.put("message", message));
    }

    private static void send(WebSocketConnection c, ObjectNode message) {
        try {
            c.sendText(MAPPER.writeValueAsString(message));
        } catch (IOException e) {
            // the page went away: its reader thread ends the watch
        }
    }

    /** The agent's deliveries to the page, on the observer client's reader thread. */
    private static final class Forwarder implements Observer {
        private final WebSocketConnection page;

        Forwarder(WebSocketConnection page) {
            this.page = page;
        }

        @Override
        public void onEvents(int subscription, List<ObservedEvent> events) {
            ObjectNode m = JSON.objectNode().put("type", "events");
            ArrayNode list = m.putArray("events");
            for (ObservedEvent e : events) {
                ObjectNode o = list.addObject().put("kind", e.kind().name()).put("path", e.path()).put("timeMs", e.timeNanos() / 1e6);
                if (e.kind() == ObservedEvent.Kind.VALUE_CHANGED) putValue(o, e.value());
                if (e.childPath() != null) o.put("child", e.childPath());
                if (e.notification() != null) o.put("message", e.notification().type() + ": " + e.notification().message());
            }
            send(page, m);
        }

        @Override
        public void onOverflow(long lost, long lostTotal) {
            send(page, JSON.objectNode().put("type", "overflow").put("lost", lost).put("lostTotal", lostTotal));
        }

        @Override
        public void onClosed(Throwable cause) {
            if (cause != null) sendError(page, null, "the agent's observe connection ended: " + cause.getMessage());
        }
    }
}
