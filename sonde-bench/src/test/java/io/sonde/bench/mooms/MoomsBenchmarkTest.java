package io.sonde.bench.mooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MOOMS benchmark in its quick mode runs end to end and writes every field (no speed asserted). */
class MoomsBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void quickRunMeasuresEveryConfigurationAndWritesTheJson() throws Exception {
        Path json = dir.resolve("mooms.json");
        MoomsBenchmark.main(new String[] {"--quick", "--json", json.toString(), "--out", dir.resolve("out").toString()});

        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertThat(n.get("benchmark").asText()).isEqualTo("mooms");
        assertThat(n.get("quick").asBoolean()).isTrue();
        assertThat(n.get("jdk").asText()).isNotBlank();
        assertThat(n.get("eventsPerRequest").asInt()).isEqualTo(3);
        List<String> names = new ArrayList<>();
        for (JsonNode c : n.get("configurations")) {
            names.add(c.get("name").asText());
            for (String measure : List.of("wall", "cpu", "thread")) {
                JsonNode x = c.get(measure);
                assertThat(x.get("nsPerRequest").asDouble()).as(c.get("name").asText() + " " + measure).isPositive();
                for (String field : List.of("relativeOverhead", "relativeOverheadMin", "relativeOverheadMax")) {
                    assertThat(x.get(field).isNumber()).as(c.get("name").asText() + " " + measure + " " + field).isTrue();
                }
            }
            for (String field : List.of("eventsExpected", "eventsReceived", "eventsLostReported", "eventsLostAtServer", "eventsMissing", "rounds")) {
                assertThat(c.has(field)).as(c.get("name").asText() + " has " + field).isTrue();
            }
            int readers = c.get("readers").asInt();
            long expected = c.get("eventsExpected").asLong();
            if (readers == 0) {
                assertThat(expected).isZero();
            } else {
                // every expected event is accounted for: received, reported lost, or counted missing
                assertThat(c.get("eventsReceived").asLong() + c.get("eventsLostReported").asLong() + c.get("eventsMissing").asLong())
                        .as(c.get("name").asText()).isGreaterThanOrEqualTo(expected).isPositive();
                assertThat(c.get("eventsReceived").asLong()).as(c.get("name").asText()).isPositive();
            }
            if (c.get("system").asText().equals("sonde")) {
                assertThat(c.get("eventsLostAtServer").isNumber()).isTrue();
            }
        }
        assertThat(names).containsExactly("none", "idle", "sonde immediate x1", "sonde immediate x2", "sonde batch-10 x1",
                "sonde batch-10 x2", "sonde periodic-10ms x1", "sonde periodic-10ms x2", "jmx x0", "jmx x1", "jmx x2");
        JsonNode none = n.get("configurations").get(0);
        assertThat(none.get("rounds")).hasSize(names.size()); // the baseline before, between and after the others
        for (JsonNode m : n.get("configurations").get(1).get("rounds")) {
            assertThat(m.get("baselineNsPerRequest").asDouble()).isPositive();
        }
        assertThat(n.get("goals").get("comparedReaders").asInt()).isEqualTo(2);
        for (String measure : List.of("wall", "cpu", "thread")) {
            JsonNode g = n.get("goals").get(measure);
            assertThat(g.get("sondeAgainstJmx").size()).as(measure).isEqualTo(3);
            assertThat(g.get("idleWithinNoise").isBoolean()).as(measure).isTrue();
            assertThat(g.get("noise").isNumber()).as(measure).isTrue();
        }
    }

    @Test
    void badOptionsAreNamed() {
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--qos", "batch-0"})).hasMessageContaining("batch-0");
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--qos", "periodic-10"})).hasMessageContaining("periodic-10");
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--observers", "1,x"})).hasMessageContaining("--observers");
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--jmx-listeners", "65"})).hasMessageContaining("above the maximum 64");
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--rounds"})).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> MoomsOptions.parse(new String[] {"--frobnicate", "1"})).hasMessageContaining("unknown option --frobnicate");
    }

    @Test
    void zeroObserversMeansOnlyIdleForSonde() {
        MoomsOptions o = MoomsOptions.parse(new String[] {"--observers", "0", "--jmx-listeners", "0"});
        assertThat(MoomsBenchmark.configurations(o)).extracting(Configuration::name).containsExactly("idle", "jmx x0");
    }

    @Test
    void qosLabelsMapToTheirDeliveryQos() {
        assertThat(Configuration.parseQos("batch-100", java.time.Duration.ofMillis(10)).batchSize()).isEqualTo(100);
        assertThat(Configuration.parseQos("periodic-30ms", java.time.Duration.ofMillis(10)).intervalNanos()).isEqualTo(30_000_000L);
        assertThat(Configuration.sonde("immediate", java.time.Duration.ofMillis(10), 3).name()).isEqualTo("sonde immediate x3");
    }
}
