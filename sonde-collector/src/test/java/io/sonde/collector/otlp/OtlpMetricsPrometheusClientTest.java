package io.sonde.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.export.otlp.OtlpReceiver;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.metrics.CollectorMetrics;
import io.sonde.collector.metrics.MetricsHandler;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.prometheus.PrometheusClient;
import io.sonde.core.prometheus.PrometheusClient.Family;
import io.sonde.core.prometheus.PrometheusClient.Sample;
import io.sonde.core.prometheus.ShopWorkload;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The families a {@code PrometheusSource} handler adds to the collector's {@code /metrics}: a
 * collector running the {@code metrics} and {@code otlp} handlers (exporting to a real OTLP/HTTP
 * receiver), fed over TCP by an API application running {@link ShopWorkload}; the exposition read
 * by the official Prometheus parser ({@link PrometheusClient}) and its {@code sonde_otlp_*} families
 * checked against the workload: one span per call, all accepted, nothing dropped.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the first run installs the client
class OtlpMetricsPrometheusClientTest {
    @TempDir
    Path out;

    @Test
    void theOtlpFamiliesReadByTheOfficialParserCountEverySpanOfTheWorkload() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            OtlpHandler otlp = new OtlpHandler();
            MetricsHandler metrics = new MetricsHandler();
            Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                    new ArrayList<>(List.<DataHandler>of(metrics, otlp)), Map.of("otlp.url", receiver.uri().toString())), ReceiverListener.none(), line -> {});
            try {
                Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port",
                        String.valueOf(collector.port()), "flush.interval.ms", "5", "policy", "block-forever")));
                try {
                    ShopWorkload.run(app);
                } finally {
                    app.close();
                }
                assertThat(app.counters().written()).isEqualTo(2 * ShopWorkload.CALLS);
                // both handlers are queued and the sender batches: wait until every span was accepted
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (receiver.spans().size() < ShopWorkload.CALLS || otlp.sender() == null || otlp.sender().accepted() < ShopWorkload.CALLS) {
                    assertThat(System.nanoTime() - deadline).as("spans received within 60 s: " + receiver.spans().size()).isNegative();
                    Thread.sleep(50);
                }

                Map<String, Family> m = PrometheusClient.parseAndCheck(new CollectorMetrics(collector, metrics).render());
                assertThat(m.keySet()).filteredOn(n -> n.startsWith("sonde_otlp_")).containsExactlyInAnyOrder("sonde_otlp_spans",
                        "sonde_otlp_spans_sent", "sonde_otlp_spans_dropped", "sonde_otlp_requests", "sonde_otlp_traces_dropped",
                        "sonde_otlp_bad_records");
                assertThat(m.values()).filteredOn(f -> f.name().startsWith("sonde_otlp_")).allSatisfy(f -> assertThat(f.type()).isEqualTo("counter"));
                assertThat(samples(m, "sonde_otlp_spans")).containsExactly(new Sample("sonde_otlp_spans_total", Map.of(), ShopWorkload.CALLS));
                assertThat(samples(m, "sonde_otlp_spans_sent")).containsExactlyInAnyOrder(
                        new Sample("sonde_otlp_spans_sent_total", Map.of("outcome", "accepted"), ShopWorkload.CALLS),
                        new Sample("sonde_otlp_spans_sent_total", Map.of("outcome", "rejected"), 0));
                assertThat(samples(m, "sonde_otlp_spans_dropped")).extracting(s -> s.labels().get("reason"))
                        .containsExactlyInAnyOrder("queue_full", "gave_up", "unreachable");
                assertThat(samples(m, "sonde_otlp_traces_dropped")).extracting(s -> s.labels().get("reason"))
                        .containsExactlyInAnyOrderElementsOf(Arrays.stream(OtlpHandler.TraceDrop.values()).map(OtlpHandler.TraceDrop::label).toList());
                for (String family : List.of("sonde_otlp_spans_dropped", "sonde_otlp_traces_dropped", "sonde_otlp_bad_records")) {
                    assertThat(samples(m, family)).as(family).allSatisfy(s -> assertThat(s.value()).isZero());
                }
                assertThat(samples(m, "sonde_otlp_requests")).singleElement().extracting(Sample::value).isEqualTo((double) receiver.requests());
                assertThat(samples(m, "sonde_operation_calls").stream().mapToDouble(Sample::value).sum()).isEqualTo(ShopWorkload.CALLS);
                assertThat(samples(m, "sonde_handler_up")).extracting(s -> s.labels().get("handler")).containsExactly("metrics", "otlp");
            } finally {
                collector.stop();
            }
        }
    }

    private static List<Sample> samples(Map<String, Family> m, String family) {
        assertThat(m).containsKey(family);
        return m.get(family).samples();
    }
}
