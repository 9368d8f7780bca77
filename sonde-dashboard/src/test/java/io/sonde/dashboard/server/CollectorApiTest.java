package io.sonde.dashboard.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.dashboard.TestLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The collector's dashboard: empty answers before any data, then the archive's pages and the agents. */
@Timeout(120)
class CollectorApiTest {
    @TempDir
    Path archive;

    @Test
    void emptyUntilTheArchiveHoldsALogThenItsAnalysis() throws Exception {
        List<CollectorApi.Agent> agents = new ArrayList<>();
        CollectorApi api = new CollectorApi(archive, () -> agents, ProbeCost.NONE, 0);
        Query none = new Query("");
        assertThat(api.get("/api/agents", none)).isEmpty();
        assertThat(api.get("/api/operations", none)).isEmpty();
        assertThat(api.get("/api/demands", none)).isEmpty();
        assertThat(api.get("/api/traces", none).get("matches").asLong()).isZero();
        JsonNode log = api.get("/api/log", none);
        assertThat(log.get("source").asText()).isEqualTo("collector");
        assertThat(log.get("inputs")).isEmpty();
        assertThatThrownBy(() -> api.get("/api/timeseries", new Query("operation=x"))).hasMessageContaining("nothing archived yet");
        assertThatThrownBy(() -> api.get("/api/other", none)).hasMessageContaining("no such API");

        agents.add(new CollectorApi.Agent("a1", "host", 42, "connected", 1, 1000, 2000, 7, 700, 0, 1200, 150.5, 3, null));
        TestLogs.record(Files.createDirectory(archive.resolve("a1")));
        assertThat(api.get("/api/agents", none).get(0).get("frames").asLong()).isEqualTo(7);
        assertThat(api.get("/api/agents", none).get(0).get("records").asLong()).isEqualTo(1200);
        assertThat(api.get("/api/agents", none).get(0).get("recordsPerSecond").asDouble()).isEqualTo(150.5);
        assertThat(api.get("/api/agents", none).get(0).get("droppedRecords").asLong()).isEqualTo(3);
        assertThat(api.get("/api/agents", none).get(0).get("droppedPerSecond").isNull()).isTrue();
        JsonNode ops = api.get("/api/operations", none);
        assertThat(ops).hasSize(3);
        assertThat(ops.get(0).get("count").asLong()).isEqualTo(TestLogs.THREADS * TestLogs.REQUESTS);
        assertThat(api.get("/api/log", none).get("source").asText()).isEqualTo("collector");
        assertThat(api.get("/api/traces", none).get("matches").asLong()).isEqualTo(TestLogs.THREADS * TestLogs.REQUESTS);
    }
}
