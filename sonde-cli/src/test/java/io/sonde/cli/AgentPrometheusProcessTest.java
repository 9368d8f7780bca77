package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.prometheus.PrometheusParser.Family;
import io.sonde.core.prometheus.PrometheusParser.Sample;
import io.sonde.core.prometheus.Scrape;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The java agent's {@code prometheus.port} in a real process: the endpoint it logs is scraped over
 * HTTP and parsed strictly; the probed methods' counts are what the test made the application do,
 * the JVM's live numbers are there, and the endpoint does not keep the JVM from exiting.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentPrometheusProcessTest {
    private static final Pattern ENDPOINT = Pattern.compile("sonde-agent: Prometheus metrics at (http://127\\.0\\.0\\.1:\\d+/metrics)");

    private AgentJvm process;

    @AfterEach
    void kill() {
        if (process != null) process.close();
    }

    @Test
    void theAgentServesItsMethodsCountsAndTheJvmsNumbersAndExitsNormally() throws Exception {
        assertThat(AgentJvm.AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        process = AgentJvm.start("prometheus.port=0,writer=discard,include=io.sonde.cli.testapp.*", "target/test-classes",
                "io.sonde.cli.testapp.LoopApp");
        process.awaitLine("ready");
        URI uri = URI.create(awaitEndpoint().group(1));
        for (int i = 1; i <= 3; i++) {
            process.send("mark");
            process.awaitLine("marked " + i);
        }
        Map<String, Family> m = Scrape.poll(uri, f -> calls(f, "Ticker.mark") == 3 && calls(f, "Ticker.tick") > 0);
        assertThat(sum(m, "sonde_operation_errors_total", "Ticker.mark")).isZero();
        assertThat(sum(m, "sonde_operation_duration_seconds_count", "Ticker.mark")).isEqualTo(3);
        assertThat(m.get("sonde_live_value").samples().stream().filter(s -> s.labels().get("path").equals("jvm/threads/count"))
                .mapToDouble(Sample::value).max().orElse(-1)).as("the JVM's thread count from the live tree").isPositive();
        assertThat(m.get("sonde_records_dropped_total").samples()).allSatisfy(s -> assertThat(s.value()).isZero());

        process.send("stop");
        process.awaitLine("done");
        assertThat(process.awaitExit()).as("the endpoint's threads are daemons").isZero();
    }

    private Matcher awaitEndpoint() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher m = ENDPOINT.matcher(process.stderr());
            if (m.find()) return m;
            Thread.sleep(50);
        }
        throw new AssertionError("no Prometheus endpoint line in the application's stderr:\n" + process.stderr());
    }

    private static double calls(Map<String, Family> m, String methodSuffix) {
        return sum(m, "sonde_operation_calls_total", methodSuffix);
    }

    /** The samples named {@code name} of operations ending with {@code methodSuffix}, summed. */
    private static double sum(Map<String, Family> m, String name, String methodSuffix) {
        return m.values().stream().flatMap(f -> f.samples().stream())
                .filter(s -> s.name().equals(name) && s.labels().getOrDefault("operation", "").endsWith(methodSuffix))
                .mapToDouble(Sample::value).sum();
    }
}
