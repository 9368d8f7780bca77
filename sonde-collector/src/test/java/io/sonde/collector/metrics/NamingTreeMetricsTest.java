package io.sonde.collector.metrics;

import static io.sonde.core.prometheus.Scrape.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.ObserveOptions;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.prometheus.PrometheusParser;
import io.sonde.core.prometheus.PrometheusParser.Family;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's {@code /metrics} with its naming tree served ({@code --observe-port}): the tree's
 * numeric attributes (per agent pid, connections, frames; the collector's agents and observers)
 * appear as {@code sonde_live_value}, parsed strictly and equal to the collector's own counts.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NamingTreeMetricsTest {
    @TempDir
    Path out;

    @Test
    void theNamingTreesNumbersAreServedWithTheirPaths() throws Exception {
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                new ArrayList<>(HandlerSet.byName(List.of("decode-count"))), Map.of()), ReceiverListener.none(), line -> {});
        try {
            CollectorMetrics metrics = new CollectorMetrics(collector, null);
            assertThat(PrometheusParser.parse(metrics.render())).as("no naming tree served: no live values").doesNotContainKey("sonde_live_value");
            collector.observe(ObserveOptions.of(0, "metrics-test-token"));

            Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port",
                    String.valueOf(collector.port()), "flush.interval.ms", "5", "policy", "block-forever")));
            String agent = app.agentId().toString();
            try {
                MethodProbe p = app.methodProbe("shop.Cart.add", "()V");
                for (int i = 0; i < 1000; i++) p.exit(p.enter());
            } finally {
                app.close();
            }
            // frames are copied into the tree every second: poll until it has the receiver's count and the agent is gone
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Map<String, Family> m;
            long frames;
            while (true) {
                var received = collector.receiverStatus().agents().get(app.agentId());
                frames = received == null ? -1 : received.frames();
                m = PrometheusParser.parse(metrics.render());
                if (frames > 0 && m.containsKey("sonde_live_value")
                        && value(m, "sonde_live_value", Map.of("path", "agents/" + agent + "/frames")) == frames
                        && value(m, "sonde_agents_connected", Map.of()) == 0) {
                    break;
                }
                assertThat(System.nanoTime() - deadline).as("naming tree not up to date within 60 s: " + m.get("sonde_live_value")).isNegative();
                Thread.sleep(50);
            }
            assertThat(value(m, "sonde_live_value", Map.of("path", "agents/" + agent + "/pid"))).isEqualTo(ProcessHandle.current().pid());
            assertThat(value(m, "sonde_live_value", Map.of("path", "agents/" + agent + "/connections"))).isEqualTo(1);
            assertThat(value(m, "sonde_live_value", Map.of("path", "agents/" + agent + "/frames", "unit", "frames")))
                    .isEqualTo(value(m, "sonde_agent_frames_received_total", Map.of("agent", agent)));
            assertThat(value(m, "sonde_live_value", Map.of("path", "collector/agents"))).isEqualTo(1);
            assertThat(value(m, "sonde_live_value", Map.of("path", "collector/observers"))).isZero();
            assertThat(m.get("sonde_live_value").type()).isEqualTo("gauge");
        } finally {
            collector.stop();
        }
    }
}
