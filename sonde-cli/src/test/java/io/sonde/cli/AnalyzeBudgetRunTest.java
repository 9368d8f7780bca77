package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde analyze} of a run whose overhead budget switched a probe off: the report lists it
 * (text and JSON), so a method missing from the statistics is never a mystery.
 */
class AnalyzeBudgetRunTest {
    private static final Path AGENT_JAR = Path.of(System.getProperty("sonde.agent.jar", "../sonde-agent/target/sonde-agent.jar"));
    private static final String APP = "io.sonde.agent.sample.BudgetApp"; // from sonde-agent's test-jar

    @TempDir
    Path dir;

    @Test
    void theReportListsTheProbesTheBudgetSwitchedOff() throws Exception {
        assertThat(AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        Path logs = dir.resolve("logs");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-javaagent:" + AGENT_JAR.toAbsolutePath() + "=include=" + APP + "$*,budget=5,budget.interval.ms=250,budget.trivial=off,"
                        + "budget.pin=" + APP + "$Work.*,file.dir=" + logs,
                "-cp", System.getProperty("java.class.path"), APP, "2")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("counter budget.switched.off=1");

        Path json = dir.resolve("a.json");
        Object[] run = CliRun.run("analyze", logs.toString(), "--no-progress", "--json", json.toString());
        int code = (Integer) run[0];
        String report = (String) run[1];
        assertThat(code).as(report).isZero();
        assertThat(report).contains("Probes switched off by the overhead budget (1;")
                .containsPattern("agent 0  " + java.util.regex.Pattern.quote(APP + "$Hot.tiny") + ": \\d+ executions");
        JsonNode switches = new ObjectMapper().readTree(json.toFile()).get("budgetSwitches");
        assertThat(switches).hasSize(1);
        assertThat(switches.get(0).get("probe").asText()).isEqualTo(APP + "$Hot.tiny");
        assertThat(switches.get(0).get("reason").asText()).startsWith("over budget");
        assertThat(switches.get(0).get("executions").asLong()).isPositive();
    }
}
