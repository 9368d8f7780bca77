package io.sonde.dashboard.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
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
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dashboard as an observer of a real observe endpoint (a live tree in this JVM, on
 * 127.0.0.1), reached by a page's WebSocket: the tree, values, periodic deliveries, and
 * management with the token typed in the page.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveHubTest {
    private static final String TOKEN = "the-agents-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LiveRuntime live = LiveRuntime.bare(LiveClock.system());
    private final LongSensor x = live.object("app", "App").longSensor("x", "items", "a counter");
    private final List<String> switched = Collections.synchronizedList(new ArrayList<>());
    private ObserveService endpoint;
    private DashboardServer dashboard;
    private String agent;
    private int wsPort;

    @BeforeEach
    void start() throws Exception {
        live.registerProbeSwitch(new ProbeSwitch() {
            @Override
            public int enable(String pattern) {
                switched.add("on " + pattern);
                return 1;
            }

            @Override
            public int disable(String pattern) {
                switched.add("off " + pattern);
                return 2;
            }
        });
        endpoint = live.observe(0, TOKEN);
        DirectLiveLink link = new DirectLiveLink("127.0.0.1", endpoint.port(), TOKEN, "/tmp/t.token");
        agent = link.name();
        dashboard = DashboardServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new LiveOnlyApi(), null, link);
        JsonNode info = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + dashboard.port() + "/api/live")).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(info.path("available").asBoolean()).isTrue();
        assertThat(info.path("agents").get(0).asText()).isEqualTo(agent);
        assertThat(info.path("who").asText()).contains("/tmp/t.token");
        wsPort = info.path("websocketPort").asInt();
    }

    @AfterEach
    void stop() {
        dashboard.close();
        endpoint.close();
        live.close();
    }

    private TestClient page() throws IOException {
        TestClient c = TestClient.open(wsPort, "/live", "Origin: http://127.0.0.1:" + dashboard.port());
        assertThat(c.answer).startsWith("HTTP/1.1 101");
        assertThat(JSON.readTree(c.readText()).path("type").asText()).isEqualTo("hello");
        return c;
    }

    /** The next message of one of these types (others skipped), at most {@code seconds} away. */
    private static JsonNode next(TestClient c, String type) throws IOException {
        while (true) {
            JsonNode m = JSON.readTree(c.readText());
            if (m.path("type").asText().equals(type)) return m;
            if (m.path("type").asText().equals("error")) throw new AssertionError("error from the hub: " + m);
        }
    }

    @Test
    void aPageGetsTheTreeTheValuesAndAtMostOneDeliveryPerPeriodWithTheLatestValue() throws Exception {
        x.set(7);
        try (TestClient c = page()) {
            c.sendText("{\"op\":\"watch\",\"agent\":\"" + agent + "\",\"pattern\":\"**\",\"periodMs\":500}");
            JsonNode tree = next(c, "tree");
            assertThat(tree.path("objects").findValuesAsText("path")).contains("app");
            JsonNode attr = tree.path("attributes").get(0);
            assertThat(attr.path("path").asText()).isEqualTo("app/x");
            assertThat(attr.path("unit").asText()).isEqualTo("items");
            JsonNode values = next(c, "values");
            assertThat(values.path("values").get(0).path("value").asLong()).isEqualTo(7);
            assertThat(next(c, "watching").path("periodMs").asInt()).isEqualTo(500);

            // 3,000 changes in three bursts (fewer than the session queue's 4,096, so none can be lost):
            // the page gets a few deliveries, not 3,000 messages, the last one with the last value
            long t0 = System.nanoTime();
            for (int burst = 0; burst < 3; burst++) {
                for (int i = 1; i <= 1000; i++) x.set(burst * 1000L + i);
                Thread.sleep(100);
            }
            int deliveries = 0;
            long last = -1;
            while (last != 3000) {
                JsonNode events = next(c, "events");
                deliveries++;
                for (JsonNode e : events.path("events")) {
                    assertThat(e.path("kind").asText()).isEqualTo("VALUE_CHANGED");
                    last = e.path("value").asLong();
                }
                assertThat(events.path("events").size()).as("latest value per attribute: one event per delivery").isEqualTo(1);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            // one delivery per 500 ms period, plus one for the period under way when the burst began
            assertThat(deliveries).as("deliveries in %.1f s", seconds).isLessThanOrEqualTo((int) (seconds / 0.5) + 2);
        }
    }

    @Test
    void managementUsesTheTokenTypedInThePageAndAWrongOneIsRefusedWithoutChangingAnything() throws Exception {
        try (TestClient c = page()) {
            c.sendText("{\"op\":\"manage\",\"id\":1,\"agent\":\"" + agent + "\",\"action\":\"probes-off\",\"pattern\":\"*.tick\",\"token\":\"guess\"}");
            JsonNode refused = next(c, "result");
            assertThat(refused.path("id").asInt()).isEqualTo(1);
            assertThat(refused.path("ok").asBoolean()).isFalse();
            assertThat(refused.path("message").asText()).startsWith("token refused by " + agent).contains("nothing was changed");
            assertThat(switched).isEmpty();

            c.sendText("{\"op\":\"manage\",\"id\":2,\"agent\":\"" + agent + "\",\"action\":\"probes-off\",\"pattern\":\"*.tick\",\"token\":\"" + TOKEN + "\"}");
            JsonNode off = next(c, "result");
            assertThat(off.path("ok").asBoolean()).as("%s", off).isTrue();
            assertThat(off.path("changed").asInt()).isEqualTo(2);
            assertThat(switched).containsExactly("off *.tick");

            c.sendText("{\"op\":\"manage\",\"id\":3,\"agent\":\"" + agent + "\",\"action\":\"suspend\",\"pattern\":\"app/**\",\"token\":\"" + TOKEN + "\"}");
            JsonNode suspended = next(c, "result");
            assertThat(suspended.path("ok").asBoolean()).isTrue();
            assertThat(suspended.path("changed").asInt()).isPositive();
            assertThat(suspended.path("message").asText()).isEqualTo("suspend app/**: " + suspended.path("changed").asInt() + " sensor(s) changed");

            c.sendText("{\"op\":\"manage\",\"id\":4,\"agent\":\"" + agent + "\",\"action\":\"probes-on\",\"pattern\":\"*.tick\"}");
            JsonNode noToken = next(c, "error");
            assertThat(noToken.path("message").asText()).contains("management needs the agent's observe token");
            c.sendText("{\"op\":\"manage\",\"id\":5,\"agent\":\"" + agent + "\",\"action\":\"explode\",\"pattern\":\"x\",\"token\":\"t\"}");
            assertThat(next(c, "error").path("message").asText()).startsWith("action: unknown 'explode'");
            c.sendText("{\"op\":\"watch\",\"agent\":\"nobody:1\"}");
            assertThat(JSON.readTree(c.readText()).path("message").asText()).contains("unknown agent 'nobody:1'");
            c.sendText("not json");
            assertThat(JSON.readTree(c.readText()).path("message").asText()).startsWith("not JSON");
        }
    }

    @Test
    void aPageListsTheAgentsProbesAPageAtATimeWithTheDashboardsOwnToken() throws Exception {
        try (TestClient c = page()) {
            c.sendText("{\"op\":\"probes\",\"id\":1,\"agent\":\"" + agent + "\",\"pattern\":\"*\"}");
            JsonNode cannot = next(c, "result");
            assertThat(cannot.path("ok").asBoolean()).isFalse();
            assertThat(cannot.path("message").asText()).startsWith(agent + " has no method probes to list").contains("cannot list");

            List<ProbeSwitch.Probe> probes = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                probes.add(new ProbeSwitch.Probe(i, "com.shop.C" + i + ".tick", "()V", i != 3, i == 3 ? ProbeSwitch.Origin.BUDGET
                        : ProbeSwitch.Origin.CONFIGURED, i == 3 ? "over budget" : ""));
            }
            live.registerProbeSwitch(new ProbeSwitch() {
                @Override
                public int enable(String pattern) {
                    return 0;
                }

                @Override
                public int disable(String pattern) {
                    return 0;
                }

                @Override
                public Page list(String pattern, int offset, int limit) {
                    return new Page(probes.size(), offset, probes.subList(Math.min(offset, 5), Math.min(5, offset + limit)));
                }
            });
            c.sendText("{\"op\":\"probes\",\"id\":2,\"agent\":\"" + agent + "\",\"pattern\":\"com.*\",\"offset\":2,\"limit\":2}");
            JsonNode page = next(c, "probes");
            assertThat(page.path("id").asInt()).isEqualTo(2);
            assertThat(page.path("total").asInt()).isEqualTo(5);
            assertThat(page.path("offset").asInt()).isEqualTo(2);
            assertThat(page.path("truncated").asBoolean()).isTrue();
            assertThat(page.path("probes").findValuesAsText("name")).containsExactly("com.shop.C2.tick", "com.shop.C3.tick");
            JsonNode budget = page.path("probes").get(1);
            assertThat(budget.path("on").asBoolean()).isFalse();
            assertThat(budget.path("origin").asText()).isEqualTo("BUDGET");
            assertThat(budget.path("detail").asText()).isEqualTo("over budget");
            assertThat(budget.path("signature").asText()).isEqualTo("()V");

            c.sendText("{\"op\":\"probes\",\"id\":3,\"agent\":\"" + agent + "\",\"limit\":5000}");
            assertThat(next(c, "error").path("message").asText()).contains("limit between 1 and 1000");
        }
    }

    @Test
    void aPageOfAnotherOriginIsRefused() throws Exception {
        try (TestClient c = TestClient.open(wsPort, "/live", "Origin: http://127.0.0.1:" + (dashboard.port() == 1 ? 2 : 1))) {
            assertThat(c.answer).startsWith("HTTP/1.1 403");
        }
        try (TestClient c = TestClient.open(wsPort, "/live", "Origin: http://attacker.example:" + dashboard.port())) {
            assertThat(c.answer).startsWith("HTTP/1.1 403");
        }
    }
}
