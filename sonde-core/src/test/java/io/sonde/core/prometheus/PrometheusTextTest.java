package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void labelValuesAndHelpRoundTripThroughTheParser() {
        List<String> awkward = List.of("plain", "quote \" inside", "back\\slash", "line\nfeed", "\\\"\n\\n", "ünïcödé ✓", "", "a,b=c}{");
        PrometheusText t = new PrometheusText().family("sonde_test_total", "counter", "help with \\ and\nnewline");
        for (int i = 0; i < awkward.size(); i++) {
            t.sample("sonde_test_total", i, "operation", awkward.get(i), "n", Integer.toString(i));
        }
        var families = PrometheusParser.parse(t.toString());
        var f = families.get("sonde_test_total");
        assertThat(f.help()).isEqualTo("help with \\ and\nnewline");
        assertThat(f.samples()).hasSize(awkward.size());
        for (int i = 0; i < awkward.size(); i++) {
            assertThat(f.samples().get(i).labels()).containsEntry("operation", awkward.get(i));
            assertThat(f.samples().get(i).value()).isEqualTo(i);
        }
    }

    @Test
    void randomLabelValuesRoundTrip() {
        Random rnd = new Random(15);
        String alphabet = "ab\\\"\n{}=, é#";
        for (int round = 0; round < 200; round++) {
            StringBuilder v = new StringBuilder();
            for (int i = rnd.nextInt(12); i > 0; i--) v.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            String text = new PrometheusText().family("x", "gauge", "h").sample("x", 1.5, "v", v.toString()).toString();
            assertThat(PrometheusParser.parse(text).get("x").samples().get(0).labels()).containsExactly(Map.entry("v", v.toString()));
        }
    }

    @Test
    void valuesAreWrittenWithoutExponent() {
        assertThat(PrometheusText.format(0.0001)).isEqualTo("0.0001");
        assertThat(PrometheusText.format(0.00025)).isEqualTo("0.00025");
        assertThat(PrometheusText.format(10)).isEqualTo("10");
        assertThat(PrometheusText.format(1.5e-9)).isEqualTo("0.0000000015");
        assertThat(PrometheusText.format(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(PrometheusText.format(Double.NaN)).isEqualTo("NaN");
    }

    @Test
    void badNamesAreRefused() {
        assertThatThrownBy(() -> new PrometheusText().family("sonde-bad", "counter", "h")).hasMessageContaining("'sonde-bad'");
        assertThatThrownBy(() -> new PrometheusText().sample("x", 1L, "le-x", "1")).hasMessageContaining("label name");
        assertThatThrownBy(() -> new PrometheusText().sample("x", 1L, "only")).hasMessageContaining("pairs");
    }

    @Test
    void theParserRejectsMalformedExpositions() {
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE x counter\nx{a=\"un\"escaped\"} 1\n")).hasMessageContaining("line 2");
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE x counter\ny 1\n")).hasMessageContaining("outside");
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE x counter\nx{a=\"\\t\"} 1\n")).hasMessageContaining("unknown escape");
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE x counter\nx 1e\n")).hasMessageContaining("bad value");
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 3\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 2\n"))
                .hasMessageContaining("not cumulative");
        assertThatThrownBy(() -> PrometheusParser.parse("# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 3\n"))
                .hasMessageContaining("_count");
    }

    @Test
    void histogramBucketsAreCumulativeAndBoundsInclusive() {
        OperationStats s = new OperationStats();
        s.add(100_000, false); // exactly le=0.0001
        s.add(100_001, true); // next bucket
        s.add(-5, false); // a clock step: counted as 0
        s.add(20_000_000_000L, false); // beyond every bound: +Inf only
        OperationStats.Snapshot snap = s.snapshot();
        assertThat(snap.calls()).isEqualTo(4);
        assertThat(snap.errors()).isEqualTo(1);
        assertThat(snap.sumNanos()).isEqualTo(100_000 + 100_001 + 20_000_000_000L);
        long[] c = snap.cumulative();
        assertThat(c).hasSize(OperationStats.BOUNDS_NANOS.length + 1);
        assertThat(c[0]).isEqualTo(2); // 0 and 100 µs
        assertThat(c[1]).isEqualTo(3);
        assertThat(c[OperationStats.BOUNDS_NANOS.length - 1]).isEqualTo(3);
        assertThat(c[c.length - 1]).isEqualTo(4);
    }
}
