package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.core.prometheus.PrometheusClient.Family;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What {@link PrometheusText} and {@link OperationFamilies} write, read by the official parser of
 * the Python client (prometheus_client, in a real Python process): escaping of label values and
 * help texts, special and extreme values, histogram buckets, counters' {@code _total}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // the first run installs the client
class PrometheusClientParserTest {

    @Test
    void escapedLabelValuesAndHelpTextsReadBackUnchanged() throws Exception {
        List<String> awkward = new ArrayList<>(List.of("plain", "quote \" inside", "back\\slash", "line\nfeed", "\\\"\n\\n", "ünïcödé ✓", "",
                "a,b=c}{", "ends with \\", "tab\tand\rreturn", "# not a comment", " spaces  around ", "x\"} 7\ny 8"));
        Random rnd = new Random(15);
        String alphabet = "ab\\\"\n{}=, é#\t";
        for (int round = 0; round < 60; round++) {
            StringBuilder v = new StringBuilder();
            for (int i = rnd.nextInt(14); i > 0; i--) v.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            awkward.add(v.toString());
        }
        String help = "help with \\ and\nnewline, \"quotes\" and trailing dots...";
        PrometheusText t = new PrometheusText().family("sonde_test_total", "counter", help);
        for (int i = 0; i < awkward.size(); i++) {
            t.sample("sonde_test_total", i, "operation", awkward.get(i), "n", Integer.toString(i));
        }
        Map<String, Family> read = PrometheusClient.parseAndCheck(t.toString());
        Family f = read.get("sonde_test");
        assertThat(f.type()).isEqualTo("counter");
        assertThat(f.help()).isEqualTo(help);
        assertThat(f.samples()).hasSize(awkward.size());
        for (int i = 0; i < awkward.size(); i++) {
            assertThat(f.samples().get(i).name()).isEqualTo("sonde_test_total");
            assertThat(f.samples().get(i).labels()).containsExactly(Map.entry("operation", awkward.get(i)), Map.entry("n", Integer.toString(i)));
            assertThat(f.samples().get(i).value()).isEqualTo(i);
        }
    }

    @Test
    void specialAndExtremeValuesReadBackExactly() throws Exception {
        double[] values = {0, -0.0, 1, -1, 0.1, 0.00025, 1.5e-9, Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, 1e21,
            123456789.123456789, Math.PI, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        long[] longs = {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 53, (1L << 53) + 1};
        PrometheusText t = new PrometheusText().family("sonde_test_value", "gauge", "values");
        for (int i = 0; i < values.length; i++) t.sample("sonde_test_value", values[i], "i", Integer.toString(i));
        t.family("sonde_test_count_total", "counter", "longs");
        for (int i = 0; i < longs.length; i++) t.sample("sonde_test_count_total", longs[i], "i", Integer.toString(i));
        Map<String, Family> read = PrometheusClient.parseAndCheck(t.toString());
        List<PrometheusClient.Sample> doubles = read.get("sonde_test_value").samples();
        for (int i = 0; i < values.length; i++) {
            // -0.0 is written as 0: the same number, and Prometheus does not tell them apart
            assertThat(Double.valueOf(doubles.get(i).value())).as("value " + values[i]).isEqualTo(Double.valueOf(values[i] == 0 ? 0.0 : values[i]));
        }
        List<PrometheusClient.Sample> counts = read.get("sonde_test_count").samples();
        for (int i = 0; i < longs.length; i++) {
            // the client reads numbers as doubles, like Prometheus itself: a long above 2^53 arrives rounded, as any double would
            assertThat(counts.get(i).value()).as("value " + longs[i]).isEqualTo((double) longs[i]);
        }
    }

    @Test
    void operationHistogramsAreHistogramsWithCumulativeBucketsEndingInInf() throws Exception {
        OperationStats a = new OperationStats();
        a.add(100_000, false); // exactly on the first bound: le="0.0001"
        a.add(3_000_000, true);
        a.add(20_000_000_000L, false); // beyond every bound: +Inf only
        OperationStats b = new OperationStats();
        PrometheusText t = new PrometheusText();
        OperationFamilies.write(t, List.of(new OperationFamilies.Series("agent-1", "shop.Cart.add(\"x\")\\n", a.snapshot()),
                new OperationFamilies.Series("agent-1", "idle", b.snapshot())));
        Map<String, Family> read = PrometheusClient.parseAndCheck(t.toString());
        assertThat(read).containsOnlyKeys("sonde_operation_calls", "sonde_operation_errors", "sonde_operation_duration_seconds");
        assertThat(read.get("sonde_operation_calls").type()).isEqualTo("counter");
        Family h = read.get("sonde_operation_duration_seconds");
        assertThat(h.type()).isEqualTo("histogram");
        Map<String, String> labels = Map.of("agent", "agent-1", "operation", "shop.Cart.add(\"x\")\\n");
        List<PrometheusClient.Sample> buckets = h.samples().stream().filter(s -> s.name().endsWith("_bucket") && s.labels().get("operation")
                .equals(labels.get("operation"))).toList();
        assertThat(buckets).hasSize(OperationStats.BOUNDS_NANOS.length + 1);
        for (int i = 0; i < OperationStats.BOUNDS_NANOS.length; i++) {
            // each le label, read as a number, is the bound in seconds
            assertThat(Double.parseDouble(buckets.get(i).labels().get("le"))).isEqualTo(OperationStats.BOUNDS_NANOS[i] / 1e9);
        }
        assertThat(buckets.get(buckets.size() - 1).labels().get("le")).isEqualTo("+Inf");
        assertThat(buckets.stream().mapToDouble(PrometheusClient.Sample::value).toArray())
                .containsExactly(1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3);
        PrometheusClient.Parsed parsed = PrometheusClient.parse(t.toString());
        assertThat(parsed.value("sonde_operation_duration_seconds_count", labels)).isEqualTo(3);
        assertThat(parsed.value("sonde_operation_duration_seconds_sum", labels)).isEqualTo(20.0031);
        assertThat(parsed.value("sonde_operation_errors_total", labels)).isEqualTo(1);
        assertThat(parsed.value("sonde_operation_calls_total", Map.of("agent", "agent-1", "operation", "idle"))).isZero();
        assertThat(parsed.version()).isEqualTo(PrometheusClient.pinnedVersion(
                java.nio.file.Path.of("../sonde-python/tests/prometheus/requirements.txt")));
    }

    @Test
    void theChecksCanFail() throws Exception {
        // a sample outside its family, a family twice, a series twice: each read by the client without complaint, each refused by the check
        assertThatThrownBy(() -> PrometheusClient.parseAndCheck("# HELP a_total h\n# TYPE a_total counter\na_total 1\nb 2\n"))
                .hasMessageContaining("type of b");
        assertThatThrownBy(() -> PrometheusClient.parseAndCheck("# HELP a h\n# TYPE a gauge\na 1\n# HELP c h\n# TYPE c gauge\nc 1\n"
                + "# HELP a h\n# TYPE a gauge\na{x=\"1\"} 1\n")).hasMessageContaining("family a twice");
        assertThatThrownBy(() -> PrometheusClient.parseAndCheck("# HELP a h\n# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n"))
                .hasMessageContaining("series written twice");
        // and what the client itself refuses fails with its message
        assertThatThrownBy(() -> PrometheusClient.parse("# HELP a h\n# TYPE a gauge\na{x=\"1} 1\n")).hasMessageContaining("prometheus_client refused");
    }
}
