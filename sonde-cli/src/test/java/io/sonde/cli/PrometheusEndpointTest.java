package io.sonde.cli;

import static io.sonde.core.prometheus.Scrape.bucket;
import static io.sonde.core.prometheus.Scrape.poll;
import static io.sonde.core.prometheus.Scrape.sum;
import static io.sonde.core.prometheus.Scrape.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.metrics.MetricsHandler;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.prometheus.PrometheusParser;
import io.sonde.core.prometheus.PrometheusParser.Family;
import io.sonde.core.prometheus.Scrape;
import io.sonde.core.prometheus.ShopWorkload;
import io.sonde.dashboard.server.DashboardServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collector in this JVM with its {@code --http} server, fed over TCP by a real API app; its
 * {@code /metrics} scraped with the JDK's HTTP client, parsed strictly, and checked against what
 * the app produced.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusEndpointTest {
    private static final int THREADS = ShopWorkload.THREADS;
    private static final int ADDS = ShopWorkload.ADDS; // per thread; every 10th throws
    private static final int CHECKOUTS = ShopWorkload.CHECKOUTS; // per thread; each calls Db.query, which sleeps 3 ms

    @TempDir
    Path out;

    @Test
    void metricsOfARealAppMatchWhatItProduced() throws Exception {
        List<DataHandler> handlers = new ArrayList<>(HandlerSet.byName(List.of("archive")));
        MetricsHandler metrics = new MetricsHandler();
        handlers.add(metrics);
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out, handlers,
                Map.of()), ReceiverListener.none(), line -> {});
        try (DashboardServer server = DashboardCommand.serveCollector(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out, collector,
                metrics, null, null, null)) {
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/metrics");
            HttpResponse<String> empty = Scrape.get(uri);
            assertThat(empty.statusCode()).isEqualTo(200);
            assertThat(empty.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(value(PrometheusParser.parse(empty.body()), "sonde_agents_connected", Map.of())).isZero();

            Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port",
                    String.valueOf(collector.port()), "flush.interval.ms", "5", "frame.bytes", "8192", "policy", "block-forever")));
            String agent = app.agentId().toString();
            try {
                ShopWorkload.run(app);
                // connected while the app runs
                poll(uri, m -> value(m, "sonde_agents_connected", Map.of()) == 1);
                Map<String, Family> live = PrometheusParser.parse(Scrape.get(uri).body());
                assertThat(value(live, "sonde_agent_connected", Map.of("agent", agent))).isEqualTo(1);
            } finally {
                app.close();
            }
            long produced = app.counters().produced();
            assertThat(app.counters().written()).isEqualTo(produced);
            long calls = ShopWorkload.CALLS;
            assertThat(produced).as("an ENTER and an EXIT per call").isEqualTo(2 * calls);

            // the metrics handler is queued: wait until it has paired everything and the agent has gone
            Map<String, Family> m = poll(uri, f -> sum(f, "sonde_operation_calls_total") == calls
                    && value(f, "sonde_agents_connected", Map.of()) == 0);

            assertThat(value(m, "sonde_operation_calls_total", Map.of("agent", agent, "operation", "shop.Cart.add"))).isEqualTo(THREADS * ADDS);
            assertThat(value(m, "sonde_operation_errors_total", Map.of("agent", agent, "operation", "shop.Cart.add"))).isEqualTo(THREADS * ADDS / 10);
            assertThat(value(m, "sonde_operation_calls_total", Map.of("agent", agent, "operation", "shop.Db.query"))).isEqualTo(THREADS * CHECKOUTS);
            assertThat(value(m, "sonde_operation_errors_total", Map.of("agent", agent, "operation", "shop.Db.query"))).isZero();
            assertThat(value(m, "sonde_operation_unpaired_records_total", Map.of())).isZero();
            // Db.query sleeps 3 ms: nothing at or below 2.5 ms, all of them in +Inf and _count, the sum at least 3 ms each
            Map<String, String> query = Map.of("agent", agent, "operation", "shop.Db.query");
            assertThat(bucket(m, query, "0.0025")).isZero();
            assertThat(bucket(m, query, "+Inf")).isEqualTo(THREADS * CHECKOUTS);
            assertThat(value(m, "sonde_operation_duration_seconds_count", query)).isEqualTo(THREADS * CHECKOUTS);
            assertThat(value(m, "sonde_operation_duration_seconds_sum", query)).isGreaterThanOrEqualTo(THREADS * CHECKOUTS * 0.003);
            // checkout contains the query: its sum is at least as large
            Map<String, String> checkout = Map.of("agent", agent, "operation", "shop.Cart.checkout");
            assertThat(value(m, "sonde_operation_duration_seconds_sum", checkout))
                    .isGreaterThanOrEqualTo(value(m, "sonde_operation_duration_seconds_sum", query));
            Map<String, String> add = Map.of("agent", agent, "operation", "shop.Cart.add");
            assertThat(bucket(m, add, "+Inf")).isEqualTo(THREADS * ADDS);
            assertThat(m.get("sonde_operation_duration_seconds").samples().stream().filter(s -> s.name().endsWith("_bucket")
                    && s.labels().get("operation").equals("shop.Cart.add")).count()).as("16 bounds and +Inf").isEqualTo(17);

            // pipeline health agrees with the collector's own counters
            var received = collector.receiverStatus().agents().get(app.agentId());
            assertThat(received.frames()).isPositive();
            assertThat(value(m, "sonde_agent_frames_received_total", Map.of("agent", agent))).isEqualTo(received.frames());
            assertThat(value(m, "sonde_agent_bytes_received_total", Map.of("agent", agent))).isEqualTo(received.bytes());
            assertThat(value(m, "sonde_agent_missing_frames_total", Map.of("agent", agent))).isZero();
            assertThat(value(m, "sonde_agent_connected", Map.of("agent", agent))).isZero();
            assertThat(value(m, "sonde_receiver_connections_total", Map.of())).isEqualTo(1);
            assertThat(value(m, "sonde_handler_up", Map.of("handler", "metrics"))).isEqualTo(1);
            assertThat(value(m, "sonde_handler_frames_handled_total", Map.of("handler", "archive"))).isEqualTo(received.frames());
            assertThat(value(m, "sonde_handler_frames_dropped_total", Map.of("handler", "metrics", "reason", "queue_full"))).isZero();
            assertThat(value(m, "sonde_handler_queue_frames", Map.of("handler", "metrics"))).isZero();
            assertThat(m.get("sonde_operation_calls_total").type()).isEqualTo("counter");
            assertThat(m.get("sonde_handler_queue_frames").type()).isEqualTo("gauge");
        } finally {
            collector.stop();
        }
    }
}
