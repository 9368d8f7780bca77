package io.sonde.core.pipeline.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PackingTest {
    static final long MS = 1_000_000L;

    @Test
    void parsesEveryMode() {
        assertThat(Packing.parse("fill", MS, MS, 100).recordsPerFrame()).isEqualTo(Integer.MAX_VALUE);
        assertThat(Packing.parse("fill", MS, MS, 100).waitBounded()).isFalse();
        assertThat(Packing.parse("none", MS, MS, 100).recordsPerFrame()).isEqualTo(1);
        assertThat(Packing.parse(" static:64 ", 5 * MS, MS, 100).recordsPerFrame()).isEqualTo(64);
        assertThat(Packing.parse("static:64", 5 * MS, MS, 100).maxWaitNanos()).isEqualTo(5 * MS);
        Packing a = Packing.parse("adaptive", MS, MS, 100);
        assertThat(a.mode()).isEqualTo(Packing.Mode.ADAPTIVE);
        assertThat(a.recordsPerFrame()).isEqualTo(1);
        assertThat(a.toString()).isEqualTo("adaptive (degree 1)");
    }

    @Test
    void badSpecsNameTheKeyAndTheProblem() {
        assertThatThrownBy(() -> Packing.parse("static:0", MS, MS, 100)).hasMessageContaining("packing: 'static:N' needs N");
        assertThatThrownBy(() -> Packing.parse("static:x", MS, MS, 100)).hasMessageContaining("packing: 'static:N' needs N");
        assertThatThrownBy(() -> Packing.parse("bytes", MS, MS, 100)).hasMessage("packing: must be fill, none, static:N, adaptive or adaptive:cpu");
        assertThatThrownBy(() -> Packing.fixed(2, 0)).hasMessageContaining("wait bound must be positive");
    }

    @Test
    void adaptiveStepsOncePerIntervalAndStaysWithinTheLargestDegree() {
        Packing p = Packing.adaptive(100, 50 * MS, 10 * MS, null); // degrees 1 .. 64
        long t = 0;
        long written = 0;
        p.observe(t, written); // starts the first interval
        p.observe(t + 5 * MS, 10);
        assertThat(p.adaptations()).isZero();
        for (int i = 1; i <= 40; i++) {
            t += 10 * MS;
            written += 1000L * i; // throughput keeps rising: the degree climbs to its bound
            p.observe(t, written);
            assertThat(p.recordsPerFrame()).isLessThanOrEqualTo(64);
        }
        assertThat(p.adaptations()).isEqualTo(40);
        assertThat(p.recordsPerFrame()).isEqualTo(64);
        assertThat(p.degreeIndex()).isEqualTo(6);
    }

    @Test
    void fixedModesNeverAdapt() {
        Packing p = Packing.fixed(8, MS);
        p.observe(0, 0);
        p.observe(MS * 1000, 1_000_000);
        assertThat(p.recordsPerFrame()).isEqualTo(8);
        assertThat(p.degreeIndex()).isEqualTo(-1);
        assertThat(p.adaptations()).isZero();
    }

    @Test
    void adaptiveCpuMeasuresRecordsPerSecondOfTheWritersCpuTime() {
        long[] cpu = {0};
        Packing p = Packing.adaptive(100, 50 * MS, 10 * MS, () -> cpu[0]);
        p.observe(0, 0);
        // wall-clock throughput rises (more records per interval), but per CPU second it falls: the degree must go down
        cpu[0] = 1 * MS;
        p.observe(10 * MS, 1000); // 1e9 records per CPU second: the first step goes up
        assertThat(p.recordsPerFrame()).isEqualTo(2);
        cpu[0] += 10 * MS;
        p.observe(20 * MS, 3000); // 2000 records in 10 ms CPU: 2e8 per CPU second, less: reverse
        assertThat(p.recordsPerFrame()).isEqualTo(1);
        assertThat(Packing.parse("adaptive:cpu", MS, MS, 100).toString()).isEqualTo("adaptive:cpu (degree 1)");
    }
}
