package io.sonde.cli.delivery;

import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.matching;
import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.privateFile;
import static io.sonde.core.prometheus.Scrape.poll;
import static io.sonde.core.prometheus.Scrape.sum;
import static io.sonde.core.prometheus.Scrape.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.DoubleSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.cli.SondeCommand;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.prometheus.PrometheusClient;
import io.sonde.core.prometheus.PrometheusClient.Family;
import io.sonde.core.prometheus.PrometheusClient.Sample;
import io.sonde.core.prometheus.Scrape;
import io.sonde.core.prometheus.ShopWorkload;
import io.sonde.format.DropReason;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both {@code /metrics} endpoints read by the official Prometheus parser (the Python client's,
 * prometheus_client, in a real Python process; {@link PrometheusClient}): {@code sonde collector
 * --http --observe-port} in its own JVM, fed over TCP by an API application in this JVM that also
 * serves its own endpoint ({@code prometheus.port}) and has live sensors; each endpoint scraped
 * over HTTP on 127.0.0.1. Family names, types, label sets and values are checked against what the
 * application did: the counts of {@link ShopWorkload} and of an operation with an awkward name,
 * the sensors' values (NaN and infinities among them), this JVM's pid.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the first run installs the client
class PrometheusClientScrapeTest {
    private static final Pattern LISTENING = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+), .*");
    private static final Pattern DASHBOARD = Pattern.compile("dashboard at http://127\\.0\\.0\\.1:(\\d+)/.*");
    private static final String TOKEN = "prometheus-s3cret";
    /** A probe name with every character the text format escapes, and the calls made of it (every third throws). */
    private static final String AWKWARD = "shop.Odd.\"quoted\"\\back\nline{le=\"1\"}";
    private static final int AWKWARD_CALLS = 7;
    /** The histogram's bounds as the format spells them, then +Inf (docs/prometheus.md). */
    private static final List<String> LE = List.of("0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
            "0.25", "0.5", "1", "2.5", "5", "10", "+Inf");

    @TempDir
    Path dir;

    @Test
    void theOfficialParserReadsTheCollectorsAndTheAgentsMetricsAsTheAppProducedThem() throws Exception {
        Path token = privateFile(dir.resolve("token"), TOKEN);
        try (JvmProcess collector = JvmProcess.start("collector", SondeCommand.class, "collector", "--port", "0", "--out",
                dir.resolve("archive").toString(), "--token-file", token.toString(), "--observe-port", "0", "--http", "0")) {
            int port = Integer.parseInt(matching(LISTENING, collector.awaitLine("collector listening on ", 60)).group(1));
            int http = Integer.parseInt(matching(DASHBOARD, collector.awaitLine("dashboard at ", 60)).group(1));
            URI collectorMetrics = URI.create("http://127.0.0.1:" + http + "/metrics");

            Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.port", String.valueOf(port), "tcp.token.file",
                    token.toString(), "flush.interval.ms", "5", "policy", "block-forever", "prometheus.port", "0")));
            String agent = app.agentId().toString();
            String pid = Long.toString(ProcessHandle.current().pid());
            try {
                URI agentMetrics = URI.create("http://127.0.0.1:" + app.prometheusPort() + "/metrics");
                MonitoredObject cart = Sonde.live().object("shop/cart", "Cart");
                cart.longSensor("items", "items", "items in the cart").set(42);
                DoubleSensor ratio = cart.doubleSensor("ratio", "", "not a number yet");
                ratio.set(Double.NaN);
                cart.doubleSensor("ceiling", "s", "unbounded").set(Double.POSITIVE_INFINITY);
                cart.doubleSensor("floor", "s", "unbounded below").set(Double.NEGATIVE_INFINITY);
                Sonde.live().object("shop/odd\"name\\", "Odd").doubleSensor("level", "µ\"unit\"\\", "an awkward path and unit").set(0.25);

                ShopWorkload.run(app);
                MethodProbe awkward = app.methodProbe(AWKWARD, "()V");
                for (int i = 0; i < AWKWARD_CALLS; i++) {
                    boolean on = awkward.enter();
                    if (i % 3 == 0) awkward.exitExceptionally(on, new IllegalStateException("odd"));
                    else awkward.exit(on);
                }
                long calls = ShopWorkload.CALLS + AWKWARD_CALLS;
                assertThat(app.counters().produced()).as("an ENTER and an EXIT per call").isEqualTo(2 * calls);

                // both are filled by other threads (the agent's writer, the collector's queued metrics handler): poll with the strict parser
                poll(agentMetrics, m -> value(m, "sonde_records_written_total", Map.of("agent", agent)) == 2 * calls
                        && sum(m, "sonde_operation_calls_total") == calls);
                poll(collectorMetrics, m -> sum(m, "sonde_operation_calls_total") == calls && value(m, "sonde_agents_connected", Map.of()) == 1);

                checkAgentEndpoint(read(agentMetrics), agent, calls);
                checkCollectorEndpoint(read(collectorMetrics), agent, pid);
            } finally {
                app.close();
            }
            collector.terminate();
            assertThat(collector.awaitExit(60)).as("collector exit; output:%n%s", collector.output()).isIn(0, 143);
        }
    }

    /** One scrape, read by prometheus_client and checked for what a Prometheus server relies on. */
    private static Map<String, Family> read(URI uri) throws Exception {
        HttpResponse<String> r = Scrape.get(uri);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        return PrometheusClient.parseAndCheck(r.body());
    }

    private static void checkAgentEndpoint(Map<String, Family> m, String agent, long calls) {
        checkOperations(m, agent);
        assertThat(m).containsKeys("sonde_records_produced", "sonde_records_written", "sonde_records_dropped", "sonde_records_in_flight",
                "sonde_live_value");
        assertThat(m.get("sonde_records_produced").type()).isEqualTo("counter");
        assertThat(only(m, "sonde_records_produced_total", Map.of("agent", agent))).isEqualTo(2 * calls);
        assertThat(only(m, "sonde_records_written_total", Map.of("agent", agent))).isEqualTo(2 * calls);
        assertThat(m.get("sonde_records_in_flight").type()).isEqualTo("gauge");
        assertThat(only(m, "sonde_records_in_flight", Map.of("agent", agent))).isZero();
        Family dropped = m.get("sonde_records_dropped");
        assertThat(dropped.type()).isEqualTo("counter");
        assertThat(dropped.samples()).extracting(s -> s.labels().get("reason"))
                .containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(DropReason.values()).map(DropReason::label).toList());
        assertThat(dropped.samples()).allSatisfy(s -> {
            assertThat(s.labels().keySet()).containsExactlyInAnyOrder("agent", "reason");
            assertThat(s.value()).isZero();
        });

        Family live = m.get("sonde_live_value");
        assertThat(live.type()).isEqualTo("gauge");
        assertThat(live.samples()).allSatisfy(s -> assertThat(s.labels().keySet()).containsExactlyInAnyOrder("agent", "path", "unit"));
        assertThat(only(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/cart/items", "unit", "items"))).isEqualTo(42);
        assertThat(only(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/cart/ratio", "unit", ""))).isNaN();
        assertThat(only(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/cart/ceiling", "unit", "s"))).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(only(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/cart/floor", "unit", "s"))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(only(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/odd\"name\\/level", "unit", "µ\"unit\"\\"))).isEqualTo(0.25);
    }

    private static void checkCollectorEndpoint(Map<String, Family> m, String agent, String pid) {
        checkOperations(m, agent);
        assertThat(only(m, "sonde_operation_unpaired_records_total", Map.of())).isZero();
        assertThat(m.get("sonde_agents_connected").type()).isEqualTo("gauge");
        assertThat(only(m, "sonde_agents_connected", Map.of())).isEqualTo(1);
        assertThat(only(m, "sonde_agent_connected", Map.of("agent", agent, "host", host(m, agent), "pid", pid))).isEqualTo(1);
        for (String counter : List.of("sonde_agent_frames_received", "sonde_agent_bytes_received", "sonde_agent_missing_frames",
                "sonde_agent_connections")) {
            assertThat(m.get(counter).type()).as(counter).isEqualTo("counter");
            assertThat(m.get(counter).samples()).extracting(Sample::labels).containsExactly(Map.of("agent", agent));
        }
        assertThat(only(m, "sonde_agent_frames_received_total", Map.of("agent", agent))).isPositive();
        assertThat(only(m, "sonde_agent_missing_frames_total", Map.of("agent", agent))).isZero();
        assertThat(only(m, "sonde_agent_connections_total", Map.of("agent", agent))).isEqualTo(1);
        assertThat(only(m, "sonde_receiver_connections_total", Map.of())).isEqualTo(1);
        // the collector runs archive and database (the default), metrics, dashboard-records and live-operations (--http)
        Set<String> handlers = Set.of("archive", "database", "metrics", "dashboard-records", "live-operations");
        assertThat(m.get("sonde_handler_up").type()).isEqualTo("gauge");
        assertThat(m.get("sonde_handler_up").samples()).extracting(s -> s.labels().get("handler")).containsExactlyInAnyOrderElementsOf(handlers);
        assertThat(m.get("sonde_handler_up").samples()).allSatisfy(s -> assertThat(s.value()).isEqualTo(1));
        assertThat(m.get("sonde_handler_frames_dropped").type()).isEqualTo("counter");
        assertThat(m.get("sonde_handler_frames_dropped").samples()).allSatisfy(s -> {
            assertThat(s.labels()).containsOnlyKeys("handler", "reason").containsEntry("reason", "queue_full");
            assertThat(s.value()).isZero();
        });
        // the naming tree's numbers (--observe-port): the agent's pid is this JVM's
        Family live = m.get("sonde_live_value");
        assertThat(live.type()).isEqualTo("gauge");
        assertThat(live.samples()).allSatisfy(s -> assertThat(s.labels().keySet()).containsExactlyInAnyOrder("path", "unit"));
        assertThat(live.samples().stream().filter(s -> s.labels().get("path").equals("agents/" + agent + "/pid")).toList())
                .singleElement().extracting(Sample::value).isEqualTo(Double.parseDouble(pid));
    }

    /** The per-operation families, alike on both endpoints: counts and histograms as the workload made them. */
    private static void checkOperations(Map<String, Family> m, String agent) {
        assertThat(m.get("sonde_operation_calls").type()).isEqualTo("counter");
        assertThat(m.get("sonde_operation_errors").type()).isEqualTo("counter");
        assertThat(m.get("sonde_operation_duration_seconds").type()).isEqualTo("histogram");
        Set<String> operations = Set.of("shop.Cart.add", "shop.Cart.checkout", "shop.Db.query", AWKWARD);
        for (String family : List.of("sonde_operation_calls", "sonde_operation_errors")) {
            assertThat(m.get(family).samples()).extracting(Sample::labels).containsExactlyInAnyOrderElementsOf(
                    operations.stream().map(op -> Map.of("agent", agent, "operation", op)).toList());
        }
        long threads = ShopWorkload.THREADS;
        expectCalls(m, agent, "shop.Cart.add", threads * ShopWorkload.ADDS, threads * ShopWorkload.ADDS / 10);
        expectCalls(m, agent, "shop.Cart.checkout", threads * ShopWorkload.CHECKOUTS, 0);
        expectCalls(m, agent, "shop.Db.query", threads * ShopWorkload.CHECKOUTS, 0);
        expectCalls(m, agent, AWKWARD, AWKWARD_CALLS, (AWKWARD_CALLS + 2) / 3);
        // Db.query sleeps 3 ms: none in the buckets up to 2.5 ms
        List<Double> query = buckets(m, agent, "shop.Db.query");
        assertThat(query.subList(0, LE.indexOf("0.0025") + 1)).containsOnly(0.0);
        assertThat(query.get(LE.size() - 1)).isEqualTo(threads * ShopWorkload.CHECKOUTS);
        assertThat(only(m, "sonde_operation_duration_seconds_sum", Map.of("agent", agent, "operation", "shop.Db.query")))
                .isGreaterThanOrEqualTo(threads * ShopWorkload.CHECKOUTS * 0.003);
    }

    private static void expectCalls(Map<String, Family> m, String agent, String operation, long calls, long errors) {
        Map<String, String> series = Map.of("agent", agent, "operation", operation);
        assertThat(only(m, "sonde_operation_calls_total", series)).as("calls of " + operation).isEqualTo(calls);
        assertThat(only(m, "sonde_operation_errors_total", series)).as("errors of " + operation).isEqualTo(errors);
        assertThat(only(m, "sonde_operation_duration_seconds_count", series)).isEqualTo(calls);
        List<Double> buckets = buckets(m, agent, operation);
        assertThat(buckets.get(buckets.size() - 1)).as("+Inf bucket of " + operation).isEqualTo(calls);
        for (int i = 1; i < buckets.size(); i++) {
            assertThat(buckets.get(i)).as("cumulative buckets of " + operation).isGreaterThanOrEqualTo(buckets.get(i - 1));
        }
    }

    /** The cumulative counts of an operation's buckets, checked to have exactly the bounds {@link #LE} in that order. */
    private static List<Double> buckets(Map<String, Family> m, String agent, String operation) {
        List<Sample> buckets = m.get("sonde_operation_duration_seconds").samples().stream()
                .filter(s -> s.name().equals("sonde_operation_duration_seconds_bucket") && operation.equals(s.labels().get("operation")))
                .toList();
        assertThat(buckets).extracting(s -> s.labels().get("le")).as("le of " + operation).containsExactlyElementsOf(LE);
        assertThat(buckets).allSatisfy(s -> assertThat(s.labels()).containsOnlyKeys("agent", "operation", "le").containsEntry("agent", agent));
        List<Double> counts = new ArrayList<>();
        buckets.forEach(s -> counts.add(s.value()));
        return counts;
    }

    /** The one sample named {@code name} with exactly {@code labels}. */
    private static double only(Map<String, Family> m, String name, Map<String, String> labels) {
        List<Sample> found = m.values().stream().flatMap(f -> f.samples().stream()).filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .toList();
        assertThat(found).as(name + labels + " among " + m.values().stream().flatMap(f -> f.samples().stream()).map(Sample::name)
                .collect(Collectors.toSet())).hasSize(1);
        return found.get(0).value();
    }

    private static String host(Map<String, Family> m, String agent) {
        return m.get("sonde_agent_connected").samples().stream().filter(s -> agent.equals(s.labels().get("agent"))).map(s -> s.labels().get("host"))
                .findFirst().orElseThrow();
    }
}
