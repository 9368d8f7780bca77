package io.sonde.bench.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.bench.overhead.kieker.KiekerFramework;
import io.sonde.bench.overhead.sonde.SondeFramework;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code sonde bench real --quick} on H2 with real JVMs (no agent, Sonde, and Kieker when its
 * jar is already cached) and checks the JSON: the contract's keys, correct results, and figures
 * that fit each configuration.
 */
class RealBenchmarkTest {

    private static final List<String> CONTRACT = List.of("framework", "workload", "startup_s", "workload_s",
            "executions", "bytes", "dropped", "correct");

    @Test
    @Timeout(150)
    void quickH2RunIsCorrectAndHasTheContractFields(@TempDir Path out) throws Exception {
        assumeAgentBuilt();
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        String kiekerJar = "kieker-" + KiekerFramework.VERSION + "-bytebuddy.jar";
        boolean kiekerCached = Files.isRegularFile(cache.resolve(kiekerJar))
                || Files.isRegularFile(Path.of(System.getProperty("user.home"), ".m2", "repository", "net",
                        "kieker-monitoring", "kieker", KiekerFramework.VERSION, kiekerJar));
        if (!kiekerCached) {
            System.out.println("RealBenchmarkTest: Kieker's agent jar is not cached; running none and sonde only");
        }
        Path json = out.resolve("real.json");
        boolean correct = RealBenchmark.execute(new String[] {"--quick", "--workloads", "h2", "--frameworks",
                kiekerCached ? "none,sonde,kieker" : "none,sonde", "--out", out.toString(), "--json", json.toString()});

        assertThat(correct).as("every configuration correct").isTrue();
        List<JsonNode> rows = rows(json);
        assertThat(rows).extracting(r -> r.get("framework").asText())
                .containsExactlyElementsOf(kiekerCached ? List.of("none", "sonde", "kieker") : List.of("none", "sonde"));
        for (JsonNode row : rows) {
            for (String key : CONTRACT) {
                assertThat(row.has(key)).as("key %s in %s", key, row).isTrue();
            }
            String fw = row.get("framework").asText();
            assertThat(row.get("workload").asText()).isEqualTo("h2");
            assertThat(row.get("correct").asBoolean()).as("correct: %s", row).isTrue();
            assertThat(row.get("errors")).as("errors of %s", fw).isEmpty();
            assertThat(row.get("failed_runs").asInt()).isZero();
            assertThat(row.get("startup_s").asDouble()).isPositive();
            assertThat(row.get("workload_s").asDouble()).isPositive();
            assertThat(row.get("dropped").asLong()).isZero();
            if (fw.equals("none")) {
                assertThat(row.get("executions").asLong()).isZero();
                assertThat(row.get("bytes").asLong()).isZero();
                assertThat(row.get("weave_s").isNull()).isTrue();
            } else {
                // 200 operations make hundreds of thousands of H2 method executions
                assertThat(row.get("executions").asLong()).as("executions of %s", fw).isGreaterThan(10_000);
                assertThat(row.get("bytes").asLong()).as("bytes of %s", fw).isGreaterThan(row.get("executions").asLong());
                assertThat(row.get("weave_s").isNumber()).isTrue();
            }
            if (fw.equals("sonde")) {
                assertThat(row.get("weave_classes").asInt()).as("H2 classes woven").isGreaterThan(100);
            }
        }
        // the run folders keep logs and reports, the (large) monitoring output is deleted
        assertThat(out.resolve("h2").resolve("sonde").resolve("run-1").resolve("report.txt")).exists();
        assertThat(out.resolve("h2").resolve("sonde").resolve("run-1").resolve("output")).doesNotExist();
    }

    @Test
    @Timeout(150)
    void quickJsonRunOnJacksonIsCorrectWithAndWithoutTheAgentAndRecordsJacksonsMethods(@TempDir Path out) throws Exception {
        assumeAgentBuilt();
        Path json = out.resolve("real.json");
        boolean correct = RealBenchmark.execute(new String[] {"--quick", "--workloads", "json", "--frameworks", "none,sonde",
                "--out", out.toString(), "--json", json.toString()});
        assertThat(correct).as("every configuration correct").isTrue();
        List<JsonNode> rows = rows(json);
        assertThat(rows).extracting(r -> r.get("framework").asText()).containsExactly("none", "sonde");
        for (JsonNode row : rows) {
            assertThat(row.get("workload").asText()).isEqualTo("json");
            assertThat(row.get("correct").asBoolean()).as("correct: %s", row).isTrue();
            assertThat(row.get("dropped").asLong()).isZero();
        }
        // 200 operations of Jackson: thousands of monitored executions of its parser and serializers
        assertThat(rows.get(1).get("executions").asLong()).as("executions: %s", rows.get(1)).isGreaterThan(10_000);
        assertThat(rows.get(1).get("weave_classes").asInt()).as("Jackson classes woven").isGreaterThan(50);
    }

    @Test
    @Timeout(120)
    void aRunPastTheByteLimitIsCutAndNotCorrect(@TempDir Path out) throws Exception {
        assumeAgentBuilt();
        Path json = out.resolve("real.json");
        // sonde only: the no-agent reference run is made but not reported
        boolean correct = RealBenchmark.execute(new String[] {"--quick", "--workloads", "h2", "--frameworks", "sonde",
                "--max-bytes", "1", "--out", out.toString(), "--json", json.toString()});
        assertThat(correct).isFalse();
        List<JsonNode> rows = rows(json);
        assertThat(rows).hasSize(1);
        JsonNode row = rows.get(0);
        assertThat(row.get("framework").asText()).isEqualTo("sonde");
        assertThat(row.get("correct").asBoolean()).isFalse();
        assertThat(row.get("cut").asInt()).isEqualTo(1);
        assertThat(row.get("failed_runs").asInt()).isEqualTo(1);
        assertThat(row.get("errors").toString()).contains("killed when its output passed 1 bytes");
        assertThat(out.resolve("h2").resolve("none").resolve("run-1").resolve("report.txt")).exists();
    }

    private static void assumeAgentBuilt() {
        assumeTrue(SondeFramework.candidates().stream().anyMatch(Files::isRegularFile),
                "the Sonde agent jar is not built (mvn -pl sonde-agent package)");
    }

    /** The objects of the benchmark's JSON array. */
    private static List<JsonNode> rows(Path json) throws java.io.IOException {
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(json.toFile()).forEach(rows::add);
        return rows;
    }
}
