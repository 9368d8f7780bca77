package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde validate-model --json}: the contract's keys, training and held-out rows per table. */
class ValidateModelCommandTest {

    @TempDir
    Path dir;

    @Test
    void jsonReportsTrainingAndHeldOutRowsPerTableWithParameterAndDataCounts() throws Exception {
        Path json = dir.resolve("v/validation.json");
        Object[] r = CliRun.run("validate-model", "--replications", "2", "--json", json.toString(), "--out", dir.resolve("png").toString(),
                "--lws", "../examples/lws.yaml");
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        assertThat((String) r[1]).contains("held-out rows").contains("fitted parameters").contains("independent data points");
        JsonNode o = new ObjectMapper().readTree(json.toFile());
        assertThat(o.get("fitted_parameters").asInt()).isPositive();
        assertThat(o.get("data_points").asInt()).isEqualTo(51);
        assertThat(o.get("fitted_on").asText()).contains("training rows").contains("out-of-sample");
        assertThat((String) r[1]).contains("LWS (thesis chapter 6");
        assertThat(o.get("lws")).isNotEmpty();
        for (JsonNode p : o.get("lws")) {
            assertThat(p.get("training").asBoolean()).as("%s", p).isFalse();
            assertThat(p.get("source").asText()).startsWith("6.");
        }
        Set<String> seen = new HashSet<>();
        for (JsonNode t : o.get("tables")) {
            assertThat(t.has("sonde_mare") && t.has("daps_mare") && t.has("training")).as("%s", t).isTrue();
            assertThat(t.get("sonde_mare").asDouble()).as("%s", t).isBetween(0.0, 10.0);
            assertThat(t.get("verdict").asText()).isIn("better", "tie", "worse");
            seen.add(t.get("table").asText() + "/" + t.get("training").asBoolean());
        }
        for (int n = 1; n <= 7; n++) {
            assertThat(seen).contains("5." + n + "/true", "5." + n + "/false");
        }
    }

    @Test
    void missingLwsFileIsAnErrorNamingTheOption() throws Exception {
        Object[] r = CliRun.run("validate-model", "--replications", "2", "--lws", dir.resolve("none.yaml").toString(),
                "--out", dir.resolve("png").toString());
        assertThat(r[0]).isNotEqualTo(0);
        assertThat((String) r[2]).contains("--lws").contains("none.yaml");
    }

    @Test
    void unwritableJsonPathIsAnErrorNamingTheOption() throws Exception {
        Path file = dir.resolve("plain-file");
        java.nio.file.Files.writeString(file, "x");
        Object[] r = CliRun.run("validate-model", "--replications", "2", "--json", file.resolve("sub.json").toString(),
                "--out", dir.resolve("png").toString());
        assertThat(r[0]).isNotEqualTo(0);
        assertThat((String) r[2]).contains("--json");
    }
}
