package io.sonde.core.prometheus;

import static io.sonde.core.prometheus.Scrape.bucket;
import static io.sonde.core.prometheus.Scrape.poll;
import static io.sonde.core.prometheus.Scrape.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.LongSensor;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.prometheus.PrometheusParser.Family;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's own Prometheus endpoint ({@code prometheus.port}): a real API monitor with the port
 * set, scraped over HTTP, its answer parsed strictly and compared with what the test produced.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentPrometheusTest {
    private static final int THREADS = ShopWorkload.THREADS;
    private static final int ADDS = ShopWorkload.ADDS; // per thread; every 10th throws
    private static final int QUERIES = ShopWorkload.CHECKOUTS; // per thread; each in a checkout, each sleeps 3 ms

    @Test
    void perOperationCountsHistogramsCountersAndLiveNumbersMatchWhatTheAppDid() throws Exception {
        Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard", "policy", "block-forever", "flush.interval.ms", "5",
                "prometheus.port", "0")));
        try {
            assertThat(app.prometheusPort()).isPositive();
            URI uri = URI.create("http://127.0.0.1:" + app.prometheusPort() + "/metrics");
            String agent = app.agentId().toString();
            HttpResponse<String> first = Scrape.get(uri);
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(first.headers().firstValue("Content-Type")).hasValue(PrometheusText.CONTENT_TYPE);
            assertThat(Scrape.get(URI.create("http://127.0.0.1:" + app.prometheusPort() + "/other")).statusCode()).isEqualTo(404);

            LongSensor items = Sonde.live().object("shop/cart", "Cart").longSensor("items", "items", "items in the cart");
            items.set(42);
            ShopWorkload.run(app);
            long produced = app.counters().produced();
            assertThat(produced).isEqualTo(2 * ShopWorkload.CALLS);

            // the writer thread aggregates what it drains: poll until it has drained everything
            Map<String, Family> m = poll(uri, f -> value(f, "sonde_records_written_total", Map.of("agent", agent)) == produced
                    && value(f, "sonde_operation_calls_total", Map.of("operation", "shop.Db.query")) == THREADS * QUERIES);
            Map<String, String> addLabels = Map.of("agent", agent, "operation", "shop.Cart.add");
            Map<String, String> queryLabels = Map.of("agent", agent, "operation", "shop.Db.query");
            assertThat(value(m, "sonde_operation_calls_total", addLabels)).isEqualTo(THREADS * ADDS);
            assertThat(value(m, "sonde_operation_errors_total", addLabels)).isEqualTo(THREADS * ADDS / 10);
            assertThat(value(m, "sonde_operation_errors_total", queryLabels)).isZero();
            assertThat(bucket(m, queryLabels, "0.0025")).as("every query slept 3 ms").isZero();
            assertThat(bucket(m, queryLabels, "+Inf")).isEqualTo(THREADS * QUERIES);
            assertThat(value(m, "sonde_operation_duration_seconds_count", queryLabels)).isEqualTo(THREADS * QUERIES);
            assertThat(value(m, "sonde_operation_duration_seconds_sum", queryLabels)).isGreaterThanOrEqualTo(THREADS * QUERIES * 0.003);
            assertThat(bucket(m, addLabels, "+Inf")).isEqualTo(THREADS * ADDS);
            assertThat(value(m, "sonde_operation_calls_total", Map.of("agent", agent, "operation", "shop.Cart.checkout"))).isEqualTo(THREADS * QUERIES);
            assertThat(value(m, "sonde_operation_duration_seconds_sum", Map.of("agent", agent, "operation", "shop.Cart.checkout")))
                    .as("a checkout contains its query").isGreaterThanOrEqualTo(value(m, "sonde_operation_duration_seconds_sum", queryLabels));
            assertThat(value(m, "sonde_records_produced_total", Map.of("agent", agent))).isEqualTo(produced);
            assertThat(value(m, "sonde_records_dropped_total", Map.of("agent", agent, "reason", "buffer-full"))).isZero();
            assertThat(value(m, "sonde_records_in_flight", Map.of("agent", agent))).isZero();
            assertThat(value(m, "sonde_live_value", Map.of("agent", agent, "path", "shop/cart/items"))).isEqualTo(42);
            assertThat(m.get("sonde_operation_duration_seconds").type()).isEqualTo("histogram");
        } finally {
            app.close();
        }
        assertThat(app.prometheusPort()).isPositive();
    }

    @Test
    void withoutThePortNothingIsServedAndAPortInUseIsAClearError() throws Exception {
        Monitor plain = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard")));
        try {
            assertThat(plain.prometheusPort()).isEqualTo(-1);
        } finally {
            plain.close();
        }
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard", "prometheus.port",
                    String.valueOf(taken.getLocalPort()))))).hasMessageContaining("prometheus.port").hasMessageContaining(
                            "127.0.0.1:" + taken.getLocalPort());
        }
    }
}
