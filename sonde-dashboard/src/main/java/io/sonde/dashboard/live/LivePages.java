package io.sonde.dashboard.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.dashboard.websocket.WebSocketHandshake;
import io.sonde.dashboard.websocket.WebSocketServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The live pages' server side: the WebSocket server (on a port of its own, same address as the
 * HTTP server) with a {@link LiveHub}, and what {@code GET /api/live} tells the page.
 */
public final class LivePages implements AutoCloseable {
    /** The WebSocket's path. */
    public static final String PATH = "/live";

    private final LiveLink link;
    private final WebSocketServer sockets;

    private LivePages(LiveLink link, WebSocketServer sockets) {
        this.link = link;
        this.sockets = sockets;
    }

    /**
     * Starts the WebSocket server on {@code address} (any free port) for pages served from HTTP
     * port {@code httpPort}: an upgrade from a page of another origin is refused.
     */
    public static LivePages start(InetAddress address, int httpPort, LiveLink link) throws IOException {
        WebSocketServer ws = WebSocketServer.start(new InetSocketAddress(address, 0), PATH, r -> sameDashboard(r, httpPort), new LiveHub(link));
        return new LivePages(link, ws);
    }

    /**
     * True when the page asking is one the dashboard served: its {@code Origin} is the HTTP port
     * on the host the page used for the WebSocket. A client without {@code Origin} is not a
     * browser page and is let in (it could read the HTTP pages as well).
     */
    public static boolean sameDashboard(WebSocketHandshake.Request r, int httpPort) {
        String origin = r.header("Origin");
        if (origin == null) return true;
        String host = r.header("Host");
        if (host == null) return false;
        try {
            URI o = new URI(origin);
            URI h = new URI("ws://" + host);
            return "http".equals(o.getScheme()) && o.getPort() == httpPort && o.getHost() != null && o.getHost().equalsIgnoreCase(h.getHost());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    public int port() {
        return sockets.port();
    }

    /** Open page connections. */
    public int connections() {
        return sockets.connections();
    }

    /** {@code GET /api/live}: where the WebSocket is, the agents, and who may act. */
    public JsonNode describe() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("available", true).put("websocketPort", port()).put("path", PATH)
                .put("who", link.whoMayAct());
        var agents = o.putArray("agents");
        try {
            link.agents().forEach(agents::add);
        } catch (IOException e) {
            o.put("agentsError", e.getMessage());
        }
        return o;
    }

    @Override
    public void close() {
        sockets.close();
    }
}
