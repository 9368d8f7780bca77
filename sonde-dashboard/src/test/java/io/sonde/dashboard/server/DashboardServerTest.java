package io.sonde.dashboard.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP side: the page and its files from the jar, JSON answers and errors, nothing else. */
@Timeout(60)
class DashboardServerTest {
    static DashboardServer server;
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Api api = (path, q) -> {
            if (path.equals("/api/echo")) return JsonNodeFactory.instance.objectNode().put("n", q.whole("n", 0, 0, 9));
            if (path.equals("/api/boom")) throw new IllegalStateException("boom");
            throw ApiError.notFound("no such API: " + path);
        };
        server = DashboardServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), api);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePageAndItsFilesFromTheJar() throws Exception {
        HttpResponse<String> page = send("GET", "/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<title>Sonde dashboard</title>", "/static/js/app.js");
        for (String f : new String[] {"/static/style.css", "/static/js/app.js", "/static/js/views/traces.js", "/static/js/chart.js"}) {
            HttpResponse<String> r = send("GET", f);
            assertThat(r.statusCode()).as(f).isEqualTo(200);
            assertThat(r.body()).as(f).isNotBlank();
        }
        assertThat(send("GET", "/static/js/app.js").headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(send("HEAD", "/").statusCode()).isEqualTo(200);
    }

    @Test
    void refusesWhatIsNotThere() throws Exception {
        assertThat(send("GET", "/static/nothing.js").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/static/../../../etc/passwd").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/static/%2e%2e/DashboardServer.class").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/elsewhere").statusCode()).isEqualTo(404);
        HttpResponse<String> post = send("POST", "/api/echo");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.body()).contains("POST");
    }

    @Test
    void answersJsonAndErrorsAsJson() throws Exception {
        HttpResponse<String> ok = send("GET", "/api/echo?n=7");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(ok.body()).isEqualTo("{\"n\":7}");
        HttpResponse<String> bad = send("GET", "/api/echo?n=x");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).isEqualTo("{\"error\":\"n: not a whole number: 'x'\"}");
        assertThat(send("GET", "/api/echo?n=10").body()).contains("n: must be between 0 and 9, got 10");
        assertThat(send("GET", "/api/none").statusCode()).isEqualTo(404);
        HttpResponse<String> boom = send("GET", "/api/boom");
        assertThat(boom.statusCode()).isEqualTo(500);
        assertThat(boom.body()).contains("boom");
    }

    @Test
    void metricsOnlyWhenAnExpositionIsGiven() throws Exception {
        assertThat(send("GET", "/metrics").statusCode()).as("a recorded log's dashboard has no /metrics").isEqualTo(404);
        Api none = (path, q) -> {
            throw ApiError.notFound("no such API: " + path);
        };
        String exposition = "# HELP x h\n# TYPE x gauge\nx 1\n";
        AtomicReference<String> text = new AtomicReference<>(exposition); // read on a server thread
        try (DashboardServer m = DashboardServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), none, () -> {
            String t = text.get();
            if (t == null) throw new IllegalStateException("no metrics");
            return t;
        })) {
            URI uri = URI.create("http://127.0.0.1:" + m.port() + "/metrics");
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(r.body()).isEqualTo(exposition);
            text.set(null);
            HttpResponse<String> failed = CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(failed.statusCode()).isEqualTo(500);
            assertThat(failed.body()).contains("no metrics");
        }
    }
}
