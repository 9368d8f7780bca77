package io.sonde.bench.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Kafka benchmark's parts that need no broker (the whole run needs one: ./sonde bench kafka --quick). */
class KafkaBenchmarkTest {
    @Test
    void agentIdsSpreadOverThePartitionsSoBothConsumersGetWork() {
        assertThat(KafkaBenchmark.spreadIds(2, 4).stream().map(id -> KafkaBenchmark.partitionOf(id, 4))).containsExactly(0, 2);
        assertThat(KafkaBenchmark.spreadIds(4, 4).stream().map(id -> KafkaBenchmark.partitionOf(id, 4))).containsExactly(0, 1, 2, 3);
        assertThat(KafkaBenchmark.spreadIds(6, 4).stream().map(id -> KafkaBenchmark.partitionOf(id, 4))).containsExactly(0, 1, 2, 3, 0, 1);
        assertThat(KafkaBenchmark.spreadIds(4, 4)).doesNotHaveDuplicates();
    }

    @Test
    void theJsonReportParsesAndHoldsTheFigures() throws Exception {
        KafkaBenchmark.Result r = new KafkaBenchmark.Result(2.5, 1000, 10, 1000, 1.0, 2.0, 400, 1000, 10, 0, 0,
                List.of(new KafkaBenchmark.Consumer(6, 0, 2, List.of("t-0", "t-1")), new KafkaBenchmark.Consumer(4, 1, 2, List.of("t-2", "t-3"))));
        JsonNode j = new ObjectMapper().readTree(KafkaBenchmark.json(r, "127.0.0.1:9092", 4, 2, 2, 2.0));
        assertThat(j.get("recordsPerSecond").asLong()).isEqualTo(400);
        assertThat(j.get("records").asLong()).isEqualTo(j.get("archivedRecords").asLong());
        assertThat(j.get("consumers")).hasSize(2);
        assertThat(j.get("consumers").get(1).get("duplicates").asLong()).isEqualTo(1);
        assertThat(KafkaBenchmark.describe(r)).contains("400 records/s end to end", "consumer 2: 4 frames archived, 1 duplicates dropped");
    }

    @Test
    void badOptionsAreNamed() {
        assertThatThrownBy(() -> KafkaBenchmark.main(new String[] {"--agents", "0"})).hasMessageContaining("--agents").hasMessageNotContaining("unknown option");
        assertThatThrownBy(() -> KafkaBenchmark.main(new String[] {"--nope"})).hasMessageContaining("--nope");
    }
}
