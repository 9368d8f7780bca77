package io.sonde.bench.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.bench.overhead.sonde.SondeFramework;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde bench compress --quick} on H2 with real JVMs under the agent: both modes measured,
 * every run's output read back, LZ4 writing fewer bytes. No timing assertions: the machine is shared.
 * (The demo workload needs the CLI jar, which the build makes after this module; it runs when
 * that jar is there.)
 */
class CompressBenchmarkTest {

    @Test
    @Timeout(300)
    void quickRunMeasuresBothModesAndLz4WritesLess(@TempDir Path out) throws Exception {
        assumeTrue(SondeFramework.candidates().stream().anyMatch(Files::isRegularFile),
                "the Sonde agent jar is not built (mvn -pl sonde-agent package)");
        boolean demo = CompressBenchmark.cliJarCandidates().stream().anyMatch(Files::isRegularFile);
        Path json = out.resolve("c.json");
        boolean ok = CompressBenchmark.execute(new String[] {"--quick", "--workloads", demo ? "demo,h2" : "h2", "--out",
            out.toString(), "--json", json.toString()});
        assertThat(ok).as("every run succeeded").isTrue();
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(json.toFile()).forEach(rows::add);
        assertThat(rows).extracting(r -> r.get("workload").asText() + " " + r.get("compress").asText())
                .containsExactlyElementsOf(demo ? List.of("demo off", "demo lz4", "h2 off", "h2 lz4") : List.of("h2 off", "h2 lz4"));
        for (JsonNode row : rows) {
            assertThat(row.get("errors")).as("errors of %s", row).isEmpty();
            assertThat(row.get("runs").asInt()).isEqualTo(1);
            assertThat(row.get("executions").asLong()).as("executions of %s", row).isPositive();
            assertThat(row.get("bytes").asLong()).isPositive();
            assertThat(row.get("writer_cpu_s").asDouble()).as("writer CPU of %s", row).isPositive();
            assertThat(row.has("writer_cpu_ms_per_mb")).isTrue();
            assertThat(row.has("executions_per_s")).isTrue();
            assertThat(row.has("dropped")).isTrue();
            if (row.get("compress").asText().equals("lz4")) {
                // the quick demo writes about 60 KB in a few frames flushed by time: how well they compress depends on how
                // many records each flush caught (0.91 and 0.996 seen under load); H2's quick run writes megabytes
                double bound = row.get("workload").asText().equals("demo") ? 1.0 : 0.9;
                assertThat(row.get("ratio").asDouble()).as("bytes with lz4 / without, %s", row).isLessThan(bound);
            } else {
                assertThat(row.get("ratio").asDouble()).isEqualTo(1.0);
            }
        }
    }

    @Test
    void badOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> CompressBenchmark.execute(new String[] {"--fast"})).hasMessageContaining("unknown option --fast");
        assertThatThrownBy(() -> CompressBenchmark.execute(new String[] {"--workloads", "demo,kafka"}))
                .hasMessageContaining("unknown workload 'kafka'");
        assertThatThrownBy(() -> CompressBenchmark.execute(new String[] {"--runs", "0"})).hasMessageContaining("--runs");
    }
}
