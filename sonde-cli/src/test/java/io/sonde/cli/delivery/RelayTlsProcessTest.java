package io.sonde.cli.delivery;

import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.matching;
import static io.sonde.cli.delivery.CollectorNamingProcessTest.inProcess;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.cli.SondeCommand;
import io.sonde.cli.delivery.CollectorNamingProcessTest.Run;
import io.sonde.core.live.observe.TestKeyPairs;
import io.sonde.format.observe.AttributeReading;
import io.sonde.observer.ObserverClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS end to end with real processes, on 127.0.0.1 with key pairs made by keytool: {@code sonde
 * collector} in its own JVM serving TLS ({@code --tls-key-store}) on its data and observe ports,
 * with {@code --agent-trust-store} and {@code --http}; an API application in another JVM writing
 * to it with {@code tcp.tls=on} and serving its own observe endpoint with TLS
 * ({@code observe.tls.key.store}). The CLI reaches the application's objects through the
 * collector with {@code --tls-trust-store} (and is refused with a clear error without it), and the
 * collector's dashboard shows the application's live values over its WebSocket (the collector
 * connects to its own TLS endpoint).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RelayTlsProcessTest {
    static final Pattern AGENT = Pattern.compile("agent ([0-9a-f-]{36}) pid \\d+ observe (\\d+)");
    static final Pattern DASHBOARD = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+)/ \\(live pages through the relay\\)");
    static final String TOKEN = "relay-tls-collector-s3cret";

    @TempDir
    Path dir;

    @Test
    void theCliAndTheDashboardReachATlsAgentThroughATlsCollector() throws Exception {
        Path collectorKeys = TestKeyPairs.keyPair(dir, "collector.p12", "CN=collector", "SAN=ip:127.0.0.1");
        Path agentKeys = TestKeyPairs.keyPair(dir, "agent.p12", "CN=agent", "SAN=ip:127.0.0.1");
        Path collectorTrust = TestKeyPairs.trustStoreOf(collectorKeys, dir, "collector-trust.p12");
        Path agentTrust = TestKeyPairs.trustStoreOf(agentKeys, dir, "agent-trust.p12");
        Path password = TestKeyPairs.secretFile(dir, "stores.password", TestKeyPairs.PASSWORD);
        Path token = TestKeyPairs.secretFile(dir, "collector.token", TOKEN);
        Path agentToken = TestKeyPairs.secretFile(dir, "observe.token", "relay-tls-agents-s3cret");
        Path stop = dir.resolve("stop");
        try (JvmProcess collector = JvmProcess.start("collector", SondeCommand.class, "collector", "--port", "0", "--out",
                dir.resolve("archive").toString(), "--token-file", token.toString(), "--bind", "127.0.0.1", "--tls-key-store",
                collectorKeys.toString(), "--tls-password-file", password.toString(), "--observe-port", "0", "--agent-token-file",
                agentToken.toString(), "--agent-trust-store", agentTrust.toString(), "--agent-trust-store-password-file",
                password.toString(), "--http", "0")) {
            int port = Integer.parseInt(matching(CollectorNamingProcessTest.LISTENING, collector.awaitLine("collector listening on ", 60)).group(1));
            String served = collector.awaitLine("agents served on ", 60);
            assertThat(served).contains("(TLS)");
            int observePort = Integer.parseInt(matching(CollectorNamingProcessTest.SERVED, served).group(1));
            String web = matching(DASHBOARD, collector.awaitLine("dashboard at ", 60)).group(1);
            String at = "127.0.0.1:" + observePort;
            SSLContext trustingTheCollector = ObserverClient.trusting(collectorTrust, TestKeyPairs.PASSWORD.toCharArray());
            try (JvmProcess app = JvmProcess.start("agent", NamingAgentMain.class, String.valueOf(port), token.toString(),
                    stop.toString(), agentToken.toString(), "tcp.host=127.0.0.1", "tcp.tls=on", "tcp.tls.trust.store=" + collectorTrust,
                    "tcp.tls.trust.store.password.file=" + password, "observe.tls.key.store=" + agentKeys,
                    "observe.tls.password.file=" + password)) {
                Matcher a = matching(AGENT, app.awaitLine("agent ", 60));
                String id = a.group(1);
                awaitAnnounced(trustingTheCollector, observePort, id, "127.0.0.1:" + a.group(2) + " (TLS)");

                Run get = inProcess("get", at + "/shop/stock/level", "--agent", id.substring(0, 8), "--token-file", token.toString(),
                        "--tls-trust-store", collectorTrust.toString(), "--tls-trust-store-password-file", password.toString(), "--json");
                assertThat(get.code()).as("get exit; stderr: %s", get.err()).isZero();
                assertThat(get.out()).contains("\"path\": \"shop/stock/level\"");

                Run plain = inProcess("get", at + "/shop/stock/level", "--agent", id, "--token-file", token.toString());
                assertThat(plain.code()).as("plain get; stderr: %s", plain.err()).isEqualTo(1);
                assertThat(plain.err()).contains("cannot connect to " + at).contains("--tls-trust-store");

                assertThat(dashboardValue(web, id)).as("the dashboard's live page reads the agent's level through the TLS relay")
                        .contains("shop/stock/level");
            }
            collector.terminate();
            assertThat(collector.awaitExit(60)).as("collector exit; output:%n%s", collector.output()).isIn(0, 143);
        }
    }

    @Test
    void theAgentTrustStoreOptionsAreCheckedAtStart() throws Exception {
        Path token = TestKeyPairs.secretFile(dir, "collector.token", TOKEN);
        Path agentToken = TestKeyPairs.secretFile(dir, "observe.token", "relay-tls-agents-s3cret");
        Path agentTrust = TestKeyPairs.trustStoreOf(TestKeyPairs.keyPair(dir, "agent.p12", "CN=agent", "SAN=ip:127.0.0.1"), dir,
                "agent-trust.p12");
        Run noRelay = inProcess("collector", "--port", "0", "--out", dir.resolve("a").toString(), "--token-file", token.toString(),
                "--agent-trust-store", agentTrust.toString());
        assertThat(noRelay.code()).as("stderr: %s", noRelay.err()).isEqualTo(2);
        assertThat(noRelay.err()).contains("--agent-trust-store needs --agent-token-file");
        Path wrong = TestKeyPairs.secretFile(dir, "wrong.password", "not-the-password");
        Run badPassword = inProcess("collector", "--port", "0", "--out", dir.resolve("b").toString(), "--token-file", token.toString(),
                "--observe-port", "0", "--agent-token-file", agentToken.toString(), "--agent-trust-store", agentTrust.toString(),
                "--agent-trust-store-password-file", wrong.toString());
        assertThat(badPassword.code()).as("stderr: %s", badPassword.err()).isEqualTo(1);
        assertThat(badPassword.err()).contains("--agent-trust-store: ").contains(agentTrust.toString());
        Run missing = inProcess("collector", "--port", "0", "--out", dir.resolve("c").toString(), "--token-file", token.toString(),
                "--observe-port", "0", "--agent-token-file", agentToken.toString(), "--agent-trust-store", dir.resolve("none.p12").toString());
        assertThat(missing.code()).as("stderr: %s", missing.err()).isEqualTo(1);
        assertThat(missing.err()).contains("--agent-trust-store: ").contains("none.p12");
    }

    /**
     * Opens the dashboard's live WebSocket as the page does and asks to watch {@code shop/**} of agent
     * {@code id}; returns the first {@code values} message (waiting at most 60 s).
     */
    private static String dashboardValue(String web, String id) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String live = http.send(HttpRequest.newBuilder(URI.create(web + "/api/live")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher ws = Pattern.compile("\"websocketPort\":(\\d+)").matcher(live);
        assertThat(ws.find()).as("/api/live: %s", live).isTrue();
        assertThat(live).contains(id);
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + ws.group(1) + "/live"), new WebSocket.Listener() {
            private final StringBuilder partial = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                partial.append(data);
                if (last) {
                    messages.add(partial.toString());
                    partial.setLength(0);
                }
                w.request(1);
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        try {
            socket.sendText("{\"op\":\"watch\",\"agent\":\"" + id + "\",\"pattern\":\"shop/**\",\"periodMs\":250}", true).get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<String> seen = new java.util.ArrayList<>();
            while (System.nanoTime() < deadline) {
                String m = messages.poll(100, TimeUnit.MILLISECONDS);
                if (m == null) continue;
                seen.add(m);
                if (m.contains("\"type\":\"values\"")) return m;
                if (m.contains("\"type\":\"error\"")) throw new AssertionError("the dashboard answered an error: " + m);
            }
            throw new AssertionError("no values from the dashboard within 60 s; messages: " + seen);
        } finally {
            socket.abort();
        }
    }

    /** Waits (at most 60 s) until the collector shows the agent's observe endpoint, asking over TLS. */
    private static void awaitAnnounced(SSLContext tls, int observePort, String id, String endpoint) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Object last = null;
        try (ObserverClient c = ObserverClient.connect("127.0.0.1", observePort, TOKEN, (s, e) -> {}, tls)) {
            while (System.nanoTime() < deadline) {
                for (AttributeReading x : c.get("agents/**")) if (x.path().equals("agents/" + id + "/observe")) last = x.value();
                if (endpoint.equals(last)) return;
                Thread.sleep(50);
            }
        }
        throw new AssertionError("agents/" + id + "/observe did not become " + endpoint + " within 60 s; last: " + last);
    }
}
