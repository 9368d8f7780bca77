package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde lab run}, {@code sonde lab validate} and {@code sonde predict} end to end, and their usage errors. */
class LabCommandTest {
    private static final String AGENT_JAR = System.getProperty("test.sonde.agent.jar", "../sonde-agent/target/sonde-agent.jar");

    @Test
    void runUnderTheAgentThenAnalyzeThenPredict(@TempDir Path dir) throws Exception {
        Path sweep = dir.resolve("sweep.json");
        Path trace = dir.resolve("trace");
        Object[] r = CliRun.run("lab", "run", "--strategy", "threaded", "--clients", "1,2", "--servant-delay", "2ms",
                "--requests", "60", "--agent", "--agent-jar", AGENT_JAR, "--trace-dir", trace.toString(), "--json", sweep.toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        JsonNode s = new ObjectMapper().readTree(sweep.toFile());
        assertThat(s.path("schema").asText()).isEqualTo("sonde-lab-sweep/1");
        assertThat(s.path("points")).hasSize(2);
        assertThat(s.path("points").get(1).path("clients").asInt()).isEqualTo(2);
        assertThat(s.path("points").get(0).path("requests").asInt()).isEqualTo(60);
        assertThat(s.path("points").get(0).path("mean_ms").asDouble()).isGreaterThan(2.0);

        Path demands = dir.resolve("demands.json");
        assertThat(CliRun.run("analyze", trace.toString(), "--demands-json", demands.toString(), "--trees", "0", "--top", "0")[0]).isEqualTo(0);
        Path prediction = dir.resolve("p.json");
        Path png = dir.resolve("p.png");
        r = CliRun.run("predict", "--demands", demands.toString(), "--strategy", "threaded", "--servant", "delay", "--clients", "1..4",
                "--replications", "2", "--json", prediction.toString(), "--png", png.toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        JsonNode p = new ObjectMapper().readTree(prediction.toFile());
        assertThat(p.path("points")).hasSize(3);
        // threaded with a sleeping servant: 4 clients queue for the lock, so about 4 times one client
        double one = p.path("points").get(0).path("response_ms").asDouble();
        double four = p.path("points").get(2).path("response_ms").asDouble();
        assertThat(one).isGreaterThan(2.0);
        assertThat(four / one).isBetween(3.0, 4.5);
        assertThat(Files.size(png)).isGreaterThan(1000);
    }

    @Test
    void validateQuickWritesTheContract(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("v.json");
        Object[] r = CliRun.run("lab", "validate", "--quick", "--strategy", "thread-per-client", "--servant", "delay",
                "--agent-jar", AGENT_JAR, "--work-dir", dir.resolve("work").toString(), "--json", json.toString(),
                "--png", dir.toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        JsonNode a = new ObjectMapper().readTree(json.toFile());
        assertThat(Files.size(dir.resolve("lab-thread-per-client.png"))).isGreaterThan(1000);
        assertThat(a.isArray()).isTrue();
        assertThat(a).hasSize(1);
        JsonNode o = a.get(0);
        assertThat(o.path("strategy").asText()).isEqualTo("thread-per-client");
        assertThat(o.path("servant").asText()).isEqualTo("delay");
        assertThat(o.path("clients").toString()).isEqualTo("[1,2,4,8]");
        assertThat(o.path("calibrated_on").toString()).isEqualTo("[1,2]");
        assertThat(o.path("measured_ms")).hasSize(4);
        assertThat(o.path("predicted_ms")).hasSize(4);
        double mare = 0;
        for (int i = 0; i < 4; i++) {
            double m = o.path("measured_ms").get(i).asDouble();
            mare += Math.abs(o.path("predicted_ms").get(i).asDouble() - m) / m / 4;
        }
        assertThat(o.path("mare").asDouble()).isCloseTo(mare, org.assertj.core.data.Offset.offset(1e-9));
        // The accuracy claim is TraceToPredictionTest's (one held-out load, 25 %); this quick sweep's
        // calibration and measured runs are seconds apart on a shared machine (0.41 seen under load),
        // so here only a broken model is caught: a 10 ms sleep per client is off by far more than 100 %
        // when the demands or the strategy are wrong.
        assertThat(o.path("mare").asDouble()).isLessThan(1.0);
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheOption() {
        Object[] r = CliRun.run("lab", "run", "--strategy", "fork", "--servant-cpu", "1ms");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--strategy").contains("unknown strategy 'fork'");
        r = CliRun.run("lab", "run", "--strategy", "threaded", "--servant-cpu", "1ms", "--servant-delay", "1ms");
        assertThat(r[0]).isEqualTo(2);
        r = CliRun.run("lab", "run", "--strategy", "threaded", "--servant-cpu", "1ms", "--clients", "0,2");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--clients");
        r = CliRun.run("predict", "--demands", "nope.json", "--strategy", "threaded", "--clients", "8..2");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--clients").contains("8..2");
        r = CliRun.run("predict", "--demands", "nope.json", "--strategy", "threaded");
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).contains("nope.json");
    }

    @Test
    void clientListsAndRanges() {
        assertThat(LabCommand.parseClients("--clients", "1..64")).isEqualTo(List.of(1, 2, 4, 8, 16, 32, 64));
        assertThat(LabCommand.parseClients("--clients", "3..20")).isEqualTo(List.of(3, 6, 12, 20));
        assertThat(LabCommand.parseClients("--clients", "1, 5,7")).isEqualTo(List.of(1, 5, 7));
    }
}
