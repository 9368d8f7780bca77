package io.sonde.dashboard.operations;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.collector.operations.OperationWindow;
import io.sonde.dashboard.server.DashboardServer;
import io.sonde.dashboard.server.LiveOnlyApi;
import io.sonde.dashboard.websocket.TestClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OperationsStreamTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long S = 1_000_000_000L;
    private static final long BASE = 1_790_000_000L;

    private final OperationWindow window = new OperationWindow(900, 50, 2);
    private DashboardServer dashboard;
    private int wsPort;

    @BeforeEach
    void start() throws Exception {
        dashboard = DashboardServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new LiveOnlyApi(), null, null, window);
        JsonNode info = get(dashboard, "/api/live-operations");
        assertThat(info.path("available").asBoolean()).isTrue();
        assertThat(info.path("path").asText()).isEqualTo("/operations");
        assertThat(info.path("rangesSeconds")).hasSize(3);
        wsPort = info.path("websocketPort").asInt();
    }

    @AfterEach
    void stop() {
        dashboard.close();
    }

    private static JsonNode get(DashboardServer d, String path) throws Exception {
        return JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + d.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private TestClient page() throws IOException {
        TestClient c = TestClient.open(wsPort, "/operations", "Origin: http://127.0.0.1:" + dashboard.port()).readTimeout(60_000);
        assertThat(c.answer).startsWith("HTTP/1.1 101");
        return c;
    }

    private static JsonNode next(TestClient c) throws IOException {
        JsonNode m = JSON.readTree(c.readText());
        if (m.path("type").asText().equals("error")) throw new AssertionError("error from the stream: " + m);
        assertThat(m.path("type").asText()).isEqualTo("operations");
        return m;
    }

    @Test
    void aPageGetsItsRangeAtOnceAndThenOnlyTheSecondsThatChanged() throws Exception {
        for (int s = 0; s < 120; s++) window.add("a1", "GET /x", (BASE + s) * S, 1_000 + s, s % 10 == 0);
        try (TestClient c = page()) {
            c.sendText("{\"op\":\"subscribe\",\"rangeSeconds\":60,\"periodMs\":250}");
            JsonNode first = next(c);
            assertThat(first.path("full").asBoolean()).isTrue();
            assertThat(first.path("newestSecond").asLong()).isEqualTo(BASE + 119);
            List<Long> seconds = new ArrayList<>();
            first.path("seconds").forEach(n -> seconds.add(n.path("second").asLong()));
            assertThat(seconds).as("the last 60 seconds only").hasSize(60).allSatisfy(s -> assertThat(s).isBetween(BASE + 60, BASE + 119));
            JsonNode one = first.path("seconds").findParent("second"); // any entry: its fields
            assertThat(one.fieldNames()).toIterable().contains("agent", "operation", "calls", "errors", "p50", "p95", "p99", "max", "sealed");
            // one more call in the newest second: the next delivery holds that second alone, with both calls
            window.add("a1", "GET /x", (BASE + 119) * S + 5, 9_000, false);
            JsonNode change = next(c);
            assertThat(change.path("full").asBoolean()).isFalse();
            assertThat(change.path("seconds")).hasSize(1);
            JsonNode s = change.path("seconds").get(0);
            assertThat(s.path("second").asLong()).isEqualTo(BASE + 119);
            assertThat(s.path("calls").asLong()).isEqualTo(2);
            assertThat(s.path("max").asLong()).isEqualTo(9_000);
            assertThat(s.path("p99").asLong()).isEqualTo(9_000);
            assertThat(s.path("p50").asLong()).isEqualTo(1_119);
        }
    }

    @Test
    void badRequestsAreAnsweredWithAnErrorNamingTheField() throws Exception {
        try (TestClient c = page()) {
            c.sendText("{\"op\":\"subscribe\",\"periodMs\":10}");
            assertThat(JSON.readTree(c.readText()).path("message").asText()).startsWith("periodMs: must be between 250");
            c.sendText("{\"op\":\"subscribe\",\"rangeSeconds\":100000}");
            assertThat(JSON.readTree(c.readText()).path("message").asText()).startsWith("rangeSeconds: must be between 1 and 900");
            c.sendText("{\"op\":\"watch\"}");
            assertThat(JSON.readTree(c.readText()).path("message").asText()).startsWith("op: unknown operation 'watch'");
        }
    }

    @Test
    void aPageOfAnotherSiteIsRefused() throws Exception {
        try (TestClient c = TestClient.open(wsPort, "/operations", "Origin: http://evil.example:" + dashboard.port())) {
            assertThat(c.answer).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void withoutACollectorTheLiveRangeIsNotOfferedAndTheAnswerSaysWhy() throws Exception {
        try (DashboardServer plain = DashboardServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new LiveOnlyApi(), null)) {
            JsonNode info = get(plain, "/api/live-operations");
            assertThat(info.path("available").asBoolean()).isFalse();
            assertThat(info.path("reason").asText()).contains("need a collector", "sonde collector");
        }
    }
}
