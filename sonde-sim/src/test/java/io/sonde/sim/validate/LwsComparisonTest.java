package io.sonde.sim.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LWS model of examples/lws.yaml against the numbers thesis chapter 6 publishes. */
class LwsComparisonTest {

    static final Path LWS = Path.of("../examples/lws.yaml");

    @TempDir
    Path dir;

    @Test
    void everyPublishedNumberIsComparedOutOfSample() {
        List<LwsComparison.Outcome> out = new LwsComparison(LWS, 1, 2).run();
        assertThat(out).hasSize(LwsComparison.publishedPoints().size());
        for (LwsComparison.Outcome o : out) {
            assertThat(o.point().source()).as("names its section").matches("6\\.[0-9.]+: .*");
            assertThat(o.sonde()).as(o.point().measure()).isPositive();
        }
        LwsComparison.Outcome web = out.get(0);
        assertThat(web.point().measure()).isEqualTo("web_cpu_utilization");
        // the model's demands (Tables 6.2-6.3) at 17.54 sessions/s: (21.07 + 29.00 + 3) ms x 17.54/s = 0.93
        assertThat(web.sonde()).isBetween(0.88, 0.98);
        assertThat(web.relativeError()).isCloseTo(Math.abs(web.sonde() - 0.88) / 0.88, org.assertj.core.data.Offset.offset(1e-12));
        JsonNode json = LwsComparison.json(out);
        assertThat(json).hasSize(out.size());
        json.forEach(n -> assertThat(n.get("training").asBoolean()).isFalse());
        String report = LwsComparison.report(out);
        assertThat(report).contains("training: false").contains("6.4.2").contains("6.5.2");
    }

    @Test
    void rangesAndBoundsAreJudgedAsPublished() {
        LwsComparison.Point range = new LwsComparison.Point("B", 1, "client_total_ms", LwsComparison.Kind.VALUE, 417, 333, 500, "6.5.2: x");
        assertThat(new LwsComparison.Outcome(range, 400, 1).relativeError()).isZero();
        assertThat(new LwsComparison.Outcome(range, 550, 1).relativeError()).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(new LwsComparison.Outcome(range, 550, 1).met()).isFalse();
        LwsComparison.Point upper = new LwsComparison.Point("A", 1, "x", LwsComparison.Kind.UPPER_BOUND, 0.1, 0.1, 0.1, "6.4.2: x");
        assertThat(new LwsComparison.Outcome(upper, 0.09, 0).met()).isTrue();
        assertThat(new LwsComparison.Outcome(upper, 0.11, 0).met()).isFalse();
        LwsComparison.Point lower = new LwsComparison.Point("B", 1, "x", LwsComparison.Kind.LOWER_BOUND, 450, 450, 450, "6.4.3: x");
        assertThat(new LwsComparison.Outcome(lower, 449, 0).met()).isFalse();
    }

    @Test
    void aMissingFileIsAnErrorNamingIt() throws Exception {
        Path missing = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> new LwsComparison(missing, 1, 2)).hasMessageContaining("nope.yaml");
        Path other = dir.resolve("other.yaml");
        Files.writeString(other, Files.readString(LWS).replace("web_page_ms", "page_ms"));
        assertThatThrownBy(() -> new LwsComparison(other, 1, 2).run()).hasMessageContaining("web_page_ms").hasMessageContaining("6.4.3");
    }
}
