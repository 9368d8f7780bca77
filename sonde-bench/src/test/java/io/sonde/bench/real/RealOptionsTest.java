package io.sonde.bench.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RealOptionsTest {

    @Test
    void quickAndFullDefaults() {
        RealOptions quick = RealOptions.parse(new String[] {"--quick"});
        assertThat(quick.runs()).isEqualTo(1);
        assertThat(quick.size(RealWorkload.H2)).isEqualTo(200);
        assertThat(quick.workloads()).containsExactly(RealWorkload.H2, RealWorkload.HTTP);
        assertThat(quick.frameworks()).containsExactly("none", "sonde", "kieker");
        RealOptions full = RealOptions.parse(new String[0]);
        assertThat(full.runs()).isEqualTo(3);
        assertThat(full.size(RealWorkload.H2)).isGreaterThan(quick.size(RealWorkload.H2));
        assertThat(full.maxBytes()).isGreaterThan(quick.maxBytes());
    }

    @Test
    void frameworksRunInReferenceOrderAndAgentOptionsPassThrough() {
        RealOptions o = RealOptions.parse(new String[] {"--frameworks", "kieker,none", "--workloads", "http",
                "--agent-options", "budget=5,file.maxsize=500m", "--runs", "2", "--h2-ops", "1_000"});
        assertThat(o.frameworks()).containsExactly("none", "kieker");
        assertThat(o.workloads()).containsExactly(RealWorkload.HTTP);
        assertThat(o.agentOptions()).isEqualTo("budget=5,file.maxsize=500m");
        assertThat(o.runs()).isEqualTo(2);
        assertThat(o.h2Ops()).isEqualTo(1000);
    }

    @Test
    void theJsonWorkloadRunsWhenNamedWithItsOwnSize() {
        assertThat(RealOptions.parse(new String[0]).workloads()).doesNotContain(RealWorkload.JSON);
        RealOptions o = RealOptions.parse(new String[] {"--workloads", "json,h2", "--json-ops", "300"});
        assertThat(o.workloads()).containsExactly(RealWorkload.JSON, RealWorkload.H2);
        assertThat(o.size(RealWorkload.JSON)).isEqualTo(300);
        assertThat(RealOptions.parse(new String[] {"--quick", "--workloads", "json"}).size(RealWorkload.JSON)).isEqualTo(200);
        assertThat(RealWorkload.JSON.sondeInclude()).isEqualTo("com.fasterxml.jackson.*");
        assertThat(RealWorkload.JSON.library()).isEqualTo("com.fasterxml.jackson.core:jackson-databind:2.22.4");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--json-ops", "0"})).hasMessageContaining("--json-ops");
    }

    @Test
    void badOptionsAreNamed() {
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--frameworks", "otel"}))
                .hasMessageContaining("--frameworks").hasMessageContaining("otel");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--workloads", "kafka"}))
                .hasMessageContaining("--workloads").hasMessageContaining("kafka");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--agent-options", "include=com.*"}))
                .hasMessageContaining("include").hasMessageContaining("set by the benchmark");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--agent-options", "budget"}))
                .hasMessageContaining("not KEY=VALUE");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--runs", "0"})).hasMessageContaining("--runs");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--jdk", "/nonexistent"})).hasMessageContaining("--jdk");
        assertThatThrownBy(() -> RealOptions.parse(new String[] {"--json"})).hasMessageContaining("needs a value");
    }

    @Test
    void includePatternsAreTheSameClassesForBothAgents() {
        assertThat(RealWorkload.H2.sondeInclude()).isEqualTo("org.h2.*");
        assertThat(RealWorkload.HTTP.sondeInclude()).isEqualTo("io.javalin.*;org.eclipse.jetty.*");
        assertThat(RealWorkload.HTTP.kiekerInclude()).isEqualTo(RealWorkload.HTTP.sondeInclude());
    }

    @Test
    void agentReportedWeavingTimeIsReadFromAnyWeaveAttributeWithAUnit() {
        assertThat(RealBenchmark.agentWeaveSeconds(Map.of("mbean.WeaveNanos", "250000000"))).isEqualTo(0.25);
        assertThat(RealBenchmark.agentWeaveSeconds(Map.of("mbean.TotalWeavingMillis", "1500"))).isEqualTo(1.5);
        assertThat(RealBenchmark.agentWeaveSeconds(Map.of("mbean.InstrumentedClassCount", "568"))).isNull();
        assertThat(RealBenchmark.agentWeaveSeconds(Map.of("mbean.WeaveNanos", "n/a"))).isNull();
    }

    @Test
    void theLastHalfIsTheTimeFromTheFifthSliceToTheEnd() {
        assertThat(RealBenchmark.lastHalfSeconds(Map.of("slice_end_ns.5", "1000000000", "slice_end_ns.10", "3500000000")))
                .isEqualTo(2.5);
        assertThat(RealBenchmark.lastHalfSeconds(Map.of("slice_end_ns.10", "3500000000"))).isNull();
        assertThat(RealBenchmark.lastHalfSeconds(Map.of("slice_end_ns.5", "0", "slice_end_ns.10", "3500000000"))).isNull();
    }

    @Test
    void medianOfTheRunsSkipsMissingValues() {
        RunMeasure a = measure(1.0);
        RunMeasure b = measure(null);
        RunMeasure c = measure(3.0);
        assertThat(RealBenchmark.median(List.of(a, b, c), RunMeasure::workloadS)).isEqualTo(2.0);
        assertThat(RealBenchmark.median(List.of(a, c, measure(2.5)), RunMeasure::workloadS)).isEqualTo(2.5);
        assertThat(RealBenchmark.median(List.of(b), RunMeasure::workloadS)).isNull();
    }

    private static RunMeasure measure(Double workloadS) {
        return new RunMeasure(0.1, 0.5, workloadS, null, null, null, 0L, 0, 0L, null, null, null, "d", 0, null, false, List.of());
    }
}
