package io.sonde.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void matchesAStraightforwardComputationOnSeededRandomSamples() {
        Random random = new Random(20261122L);
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(500);
            long[] nanos = new long[n];
            for (int i = 0; i < n; i++) {
                nanos[i] = random.nextInt(5) == 0 ? random.nextInt(1_000_000) : random.nextInt(2_000);
            }
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            double sum = 0;
            for (long v : nanos) {
                sum += v;
            }
            double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;

            Stats s = Stats.of(nanos.clone());

            assertThat(s.count()).isEqualTo(n);
            assertThat(s.meanUs()).isCloseTo(sum / n / 1000.0, within(1e-9));
            assertThat(s.medianUs()).isCloseTo(median / 1000.0, within(1e-12));
            assertThat(s.minUs()).isEqualTo(sorted[0] / 1000.0);
            assertThat(s.maxUs()).isEqualTo(sorted[n - 1] / 1000.0);
        }
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        Stats s = Stats.of(new long[] {4000, 1000, 3000, 2000});
        assertThat(s.medianUs()).isEqualTo(2.5);
        assertThat(s.meanUs()).isEqualTo(2.5);
        assertThat(s.minUs()).isEqualTo(1.0);
        assertThat(s.maxUs()).isEqualTo(4.0);
    }

    @Test
    void refusesAnEmptySample() {
        assertThatThrownBy(() -> Stats.of(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
