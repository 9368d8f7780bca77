package io.sonde.dashboard.server;

import com.fasterxml.jackson.databind.JsonNode;

/** The JSON side of the dashboard: answers {@code GET /api/...} requests. */
public interface Api {
    /**
     * Answers a GET.
     *
     * @param path the request path, starting with {@code /api/}
     * @param query its parameters
     * @throws ApiError for a request that names something absent or gives a bad parameter
     */
    JsonNode get(String path, Query query);
}
