package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;


import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde analyze} on the log of a real JVM run under the shaded agent jar: the rebuilt trees
 * must be the program's call structure (io.sonde.cli.testapp.AnalyzeShop).
 */
class AnalyzeAgentRunTest {
    private static final Path AGENT_JAR = Path.of(System.getProperty("sonde.agent.jar", "../sonde-agent/target/sonde-agent.jar"));
    private static final String SHOP = "io.sonde.cli.testapp.AnalyzeShop";

    @TempDir
    Path dir;

    @Test
    void treesOfAnAgentRunMatchTheProgram() throws Exception {
        assertThat(AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        Path logs = dir.resolve("logs");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-javaagent:" + AGENT_JAR.toAbsolutePath() + "=include=" + SHOP + ".*,cpu=on,file.dir=" + logs,
                "-cp", "target/test-classes", SHOP + "Main")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output).contains("done");

        Path json = dir.resolve("a.json");
        Object[] run = CliRun.run("analyze", logs.toString(), "--no-progress", "--trees", "10", "--json", json.toString());
        int code = (Integer) run[0];
        String report = (String) run[1];
        assertThat(code).as(report).isZero();
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("partial").asBoolean()).isFalse();
        List<JsonNode> trees = new ArrayList<>();
        root.get("trees").forEach(trees::add);
        assertThat(trees).hasSize(3);
        for (JsonNode t : trees) {
            assertThat(t.get("thread").asText()).isEqualTo("shop-worker");
            List<String> shape = new ArrayList<>();
            for (JsonNode n : t.get("nodes")) {
                String exception = n.get("exception").isNull() ? "" : " !" + n.get("exception").asText();
                shape.add(n.get("depth").asInt() + " " + n.get("operation").asText() + exception);
            }
            assertThat(shape).containsExactly(
                    "0 " + SHOP + ".order",
                    "1 " + SHOP + ".price",
                    "1 " + SHOP + ".price",
                    "1 " + SHOP + ".query",
                    "1 " + SHOP + ".audit !java.lang.IllegalStateException");
            assertThat(t.get("nodes").get(3).get("wallInclusiveNanos").asLong()).isGreaterThanOrEqualTo(2_000_000L); // slept 2 ms
            assertThat(t.get("nodes").get(0).get("cpuInclusiveNanos").isNull()).isFalse();
        }
        assertThat(root.get("counters").get("executions").asLong()).isEqualTo(15);
        assertThat(root.get("counters").get("trailerProduced").asLong()).isEqualTo(root.get("counters").get("trailerWritten").asLong());
    }
}
