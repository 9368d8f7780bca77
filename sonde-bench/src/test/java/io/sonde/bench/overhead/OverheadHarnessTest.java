package io.sonde.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.bench.overhead.sonde.SondeFramework;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real harness (real JVMs) with quick settings and checks the output files: JSON shape,
 * and, with the Sonde agent, that the file and tcp phases wrote exactly calls x threads x depth
 * execution records and the deactivated phase none.
 */
class OverheadHarnessTest {

    private static final List<String> KEYS = List.of("framework", "version", "jdk", "phase", "threads", "calls", "runs",
            "mean_us", "median_us", "min_us", "max_us", "records_expected", "records_written");

    private static List<JsonNode> run(Path out, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--out", out.toString()));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        OverheadOptions options = OverheadOptions.parse(all.toArray(new String[0]));
        new OverheadBenchmark(options, new PrintStream(log, true, StandardCharsets.UTF_8)).run();
        System.out.print(log.toString(StandardCharsets.UTF_8));
        JsonNode root = new ObjectMapper().readTree(out.resolve("overhead.json").toFile());
        assertThat(root.isArray()).isTrue();
        List<JsonNode> rows = new ArrayList<>();
        root.forEach(rows::add);
        for (JsonNode row : rows) {
            for (String key : KEYS) {
                assertThat(row.has(key)).as("key %s in %s", key, row).isTrue();
            }
            if (row.get("records_written").isNull()) {
                assertThat(row.get("reason").asText("")).as("a null count says why: %s", row).isNotBlank();
            }
        }
        assertThat(out.resolve("overhead.md")).exists();
        return rows;
    }

    @Test
    @Timeout(120)
    void baselineOnlyRunNeedsNoAgentAndHasTheJsonShape(@TempDir Path out) throws Exception {
        List<JsonNode> rows = run(out, "--quick", "--frameworks", "sonde", "--phases", "no-instrumentation",
                "--calls", "1000", "--threads", "1,2");
        assertThat(rows).hasSize(2);
        for (JsonNode row : rows) {
            assertThat(row.get("framework").asText()).isEqualTo("sonde");
            assertThat(row.get("phase").asText()).isEqualTo("no-instrumentation");
            assertThat(row.get("calls").asLong()).isEqualTo(1000);
            assertThat(row.get("runs").asInt()).isEqualTo(1);
            assertThat(row.get("records_expected").asLong()).isZero();
            assertThat(row.get("records_written").asLong()).isZero();
            double min = row.get("min_us").asDouble();
            assertThat(min).isPositive();
            assertThat(row.get("median_us").asDouble()).isBetween(min, row.get("max_us").asDouble());
            assertThat(row.get("mean_us").asDouble()).isBetween(min, row.get("max_us").asDouble());
            assertThat(row.get("errors")).isEmpty();
        }
        assertThat(rows).extracting(r -> r.get("threads").asInt()).containsExactly(1, 2);
    }

    @Test
    @Timeout(300)
    void sondeWritesExactlyCallsTimesDepthRecordsInFileAndTcp(@TempDir Path out) throws Exception {
        boolean agentBuilt = SondeFramework.candidates().stream().anyMatch(Files::isRegularFile);
        assumeTrue(agentBuilt, "sonde-agent.jar is not built yet");
        long calls = 3000;
        int threads = 2;
        List<JsonNode> rows = run(out, "--quick", "--frameworks", "sonde", "--calls", Long.toString(calls), "--threads",
                Integer.toString(threads));
        Map<String, JsonNode> byPhase = new TreeMap<>();
        for (JsonNode row : rows) {
            byPhase.put(row.get("phase").asText(), row);
            assertThat(row.get("errors")).as("errors of %s", row.get("phase")).isEmpty();
            assertThat(row.get("mean_us").isNumber()).isTrue();
        }
        assertThat(byPhase).containsOnlyKeys("no-instrumentation", "deactivated", "discard", "file", "tcp");
        long expected = calls * threads * 10;
        for (String phase : List.of("file", "tcp")) {
            JsonNode row = byPhase.get(phase);
            assertThat(row.get("records_expected").asLong()).isEqualTo(expected);
            assertThat(row.get("records_written").asLong()).as("records written in %s", phase).isEqualTo(expected);
        }
        assertThat(byPhase.get("deactivated").get("records_written").asLong()).isZero();
        assertThat(byPhase.get("discard").get("records_written").isNull()).isTrue();
        assertThat(out.resolve("overhead.png")).exists();
        assertThat(Files.readString(out.resolve("overhead.md"))).contains("| file |").contains("| tcp |");
    }
}
