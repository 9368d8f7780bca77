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
        assertThat(Packing.parse("adaptive:wall", MS, MS, 100).toString()).isEqualTo("adaptive:wall (degree 1)");
    }

    @Test
    void badSpecsNameTheKeyAndTheProblem() {
        assertThatThrownBy(() -> Packing.parse("static:0", MS, MS, 100)).hasMessageContaining("packing: 'static:N' needs N");
        assertThatThrownBy(() -> Packing.parse("static:x", MS, MS, 100)).hasMessageContaining("packing: 'static:N' needs N");
        assertThatThrownBy(() -> Packing.parse("bytes", MS, MS, 100)).hasMessage("packing: must be fill, none, static:N, adaptive, adaptive:cpu or adaptive:wall");
        assertThatThrownBy(() -> Packing.fixed(2, 0)).hasMessageContaining("wait bound must be positive");
    }

    /** Runs {@code slices} measuring slices of 1 ms with the records and CPU time a slice gets at each degree index. */
    static void run(Packing p, long[] clock, long[] written, long[] cpu, int slices,
            java.util.function.IntToLongFunction records, java.util.function.IntToLongFunction cpuPerRecord) {
        for (int s = 0; s < slices; s++) {
            int index = 31 - Integer.numberOfLeadingZeros(p.recordsPerFrame());
            long n = records.applyAsLong(index);
            written[0] += n;
            cpu[0] += n * cpuPerRecord.applyAsLong(index);
            clock[0] += MS;
            p.observe(clock[0], written[0], 0);
            assertThat(p.recordsPerFrame()).isLessThanOrEqualTo(64);
        }
    }

    @Test
    void adaptiveDecidesOncePerIntervalAndStaysWithinTheLargestDegree() {
        Packing p = Packing.adaptive(100, 50 * MS, 10 * MS, null); // degrees 1 .. 64; slices of 1 ms
        long[] clock = {0};
        long[] written = {0};
        p.observe(0, 0, 0); // starts the first slice
        p.observe(MS / 2, 10, 0);
        assertThat(p.adaptations()).isZero();
        assertThat(p.recordsPerFrame()).isEqualTo(1);
        // throughput rises with the degree: the degree climbs to its bound, one decision per 10 slices
        run(p, clock, written, new long[1], 400, i -> 1000L * (i + 1), i -> 1);
        assertThat(p.adaptations()).isEqualTo(40);
        assertThat(p.degreeIndex()).isEqualTo(6);
    }

    @Test
    void adaptiveCpuMeasuresRecordsPerSecondOfTheWritersCpuTime() {
        long[] cpu = {0};
        Packing p = Packing.adaptive(100, 50 * MS, 10 * MS, () -> cpu[0]);
        Packing wall = Packing.adaptive(100, 50 * MS, 10 * MS, null);
        p.observe(0, 0, 0);
        wall.observe(0, 0, 0);
        // per wall-clock second the throughput rises with the degree, per CPU second it falls
        java.util.function.IntToLongFunction records = i -> 1000L * (i + 1);
        java.util.function.IntToLongFunction cpuPerRecord = i -> 100L * (i + 1) * (i + 1);
        run(p, new long[] {0}, new long[] {0}, cpu, 200, records, cpuPerRecord);
        run(wall, new long[] {0}, new long[] {0}, new long[1], 200, records, cpuPerRecord);
        assertThat(p.adaptations()).isEqualTo(20);
        assertThat(p.degreeIndex()).as("per CPU second one record per frame is best").isZero();
        assertThat(wall.degreeIndex()).as("per wall-clock second the largest degree is best").isEqualTo(6);
        assertThat(Packing.parse("adaptive:cpu", MS, MS, 100).toString()).isEqualTo("adaptive:cpu (degree 1)");
    }

    @Test
    void fixedModesNeverAdapt() {
        Packing p = Packing.fixed(8, MS);
        p.observe(0, 0, 0);
        p.observe(MS * 1000, 1_000_000, 100_000_000);
        assertThat(p.recordsPerFrame()).isEqualTo(8);
        assertThat(p.degreeIndex()).isEqualTo(-1);
        assertThat(p.adaptations()).isZero();
    }
}
