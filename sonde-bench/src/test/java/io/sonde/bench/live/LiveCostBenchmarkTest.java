package io.sonde.bench.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveCostBenchmarkTest {
    @Test
    void everyCaseRunsChecksItselfAndReports() {
        List<LiveCostBenchmark.Result> results = LiveCostBenchmark.run(LiveCostBenchmark.cases(2), 2, 2);
        assertThat(results).extracting(LiveCostBenchmark.Result::name).containsExactly("field-write", "sensor-idle",
                "sensor-active", "create-delete-0", "create-delete-2", "request-2", "request-2-observed");
        for (LiveCostBenchmark.Result r : results) {
            assertThat(r.nsPerOp()).as(r.name()).isPositive();
            assertThat(r.ops()).as(r.name()).isGreaterThanOrEqualTo(2_000);
            assertThat(r.nsMin()).isLessThanOrEqualTo(r.nsPerOp()).isLessThanOrEqualTo(r.nsMax());
        }
        LiveCostBenchmark.Result observed = results.get(6);
        assertThat(observed.bytesPerOp()).as("events and their objects are allocated").isPositive();
    }

    @Test
    void observedCasesFailWhenAnEventIsMissing() {
        LiveCase.Request r = new LiveCase.Request(1, true, true);
        r.op(0);
        r.op(1);
        r.expected++; // claims one event more than was generated
        assertThatThrownBy(r::check).hasMessageContaining("events delivered of");
        r.close();
    }

    @Test
    void quickRunWritesJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out/live.json");
        LiveCostBenchmark.main(new String[] {"--quick", "--rounds", "1", "--attributes", "1", "--json", json.toString()});
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("benchmark").asText()).isEqualTo("live");
        assertThat(root.get("cases")).hasSize(7);
        assertThat(root.get("cases").get(1).get("case").asText()).isEqualTo("sensor-idle");
        assertThat(root.get("cases").get(1).get("ns_per_op").asDouble()).isPositive();
        assertThat(root.get("gateNsOverFieldWrite").asDouble()).isEqualTo(
                root.get("cases").get(1).get("ns_per_op").asDouble() - root.get("cases").get(0).get("ns_per_op").asDouble(),
                org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void badOptionsGetClearErrors() {
        assertThatThrownBy(() -> LiveCostBenchmark.main(new String[] {"--attributes", "0"}))
                .hasMessageContaining("option --attributes: 0 is below the minimum 1");
        assertThatThrownBy(() -> LiveCostBenchmark.main(new String[] {"--rounds"})).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> LiveCostBenchmark.main(new String[] {"--fast"})).hasMessageContaining("unknown option '--fast'");
    }
}
