package io.sonde.dashboard.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON side of a dashboard with live pages only ({@code sonde dashboard --observe HOST:PORT}
 * without a LOGDIR): {@code /api/log} says {@code "source": "live"} with nothing recorded, and the
 * recorded-log endpoints answer 404 saying why.
 */
public final class LiveOnlyApi implements Api {
    @Override
    public JsonNode get(String path, Query query) {
        if (path.equals("/api/log")) {
            ObjectNode o = JsonNodeFactory.instance.objectNode().put("source", "live");
            o.putArray("inputs");
            o.putArray("agents");
            o.putArray("problems");
            return o.put("partial", false).put("durationNanos", 0).put("executions", 0);
        }
        throw new ApiError(404, "no recorded log here: this dashboard only watches a live agent (started with --observe and no LOGDIR)");
    }
}
