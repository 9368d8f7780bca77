package io.sonde.core.pipeline.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The refined update rule (paired form) against simulated throughput curves (seeded noise). */
class HillClimbingTest {
    static final int MAX = 14;

    /** A unimodal curve with its peak at {@code opt}; neighbours of the peak differ by >= 5 %. */
    static IntToDoubleFunction peakAt(int opt) {
        return i -> 1000 * Math.exp(-(i - opt) * (i - opt) / 18.0);
    }

    /**
     * Runs {@code steps} updates on {@code curve}, each comparing the index with its partner, both
     * with multiplicative noise of +-{@code noise}; returns the visited indices.
     */
    static int[] climb(HillClimbing h, IntToDoubleFunction curve, double noise, Random rnd, int steps) {
        int[] visited = new int[steps];
        for (int s = 0; s < steps; s++) {
            double atIndex = curve.applyAsDouble(h.index()) * (1 + noise * (2 * rnd.nextDouble() - 1));
            double atPartner = curve.applyAsDouble(h.partner()) * (1 + noise * (2 * rnd.nextDouble() - 1));
            visited[s] = h.update(Double.compare(atIndex, atPartner));
        }
        return visited;
    }

    @Test
    void convergesToThePeakOfAUnimodalCurveWithinKStepsAndStaysAroundIt() {
        for (int opt = 1; opt < MAX; opt++) {
            for (long seed = 0; seed < 20; seed++) {
                HillClimbing h = new HillClimbing(0, MAX, 0);
                int k = opt + 2; // one step per index on the way up, plus the first step and one of slack
                int[] v = climb(h, peakAt(opt), 0.005, new Random(seed), k + 300);
                int firstNear = -1;
                for (int s = 0; s < v.length && firstNear < 0; s++) {
                    if (Math.abs(v[s] - opt) <= 1) firstNear = s;
                }
                assertThat(firstNear).as("opt %d seed %d: steps to reach the peak's neighbourhood", opt, seed).isBetween(0, k - 1);
                for (int s = k; s < v.length; s++) {
                    assertThat(Math.abs(v[s] - opt)).as("opt %d seed %d step %d", opt, seed, s).isLessThanOrEqualTo(1);
                }
            }
        }
    }

    @Test
    void withoutNoiseItOscillatesOverThePeakAndItsTwoNeighbours() {
        HillClimbing h = new HillClimbing(0, MAX, 0);
        int[] v = climb(h, peakAt(7), 0, new Random(1), 100);
        int atPeak = 0;
        for (int s = 20; s < v.length; s++) {
            assertThat(v[s]).isBetween(6, 8);
            if (v[s] == 7) atPeak++;
        }
        assertThat(atPeak).as("half of the steps at the peak (cycle 6, 7, 8, 7)").isEqualTo(40);
    }

    @Test
    void followsAMovingOptimumUpAndDown() {
        for (long seed = 0; seed < 20; seed++) {
            Random rnd = new Random(seed);
            HillClimbing h = new HillClimbing(0, MAX, 0);
            climb(h, peakAt(3), 0.005, rnd, 40);
            assertThat(Math.abs(h.index() - 3)).isLessThanOrEqualTo(1);
            // the optimum moves up by 8 (e.g. the records got smaller): within 8 + 4 steps near it
            int[] up = climb(h, peakAt(11), 0.005, rnd, 12);
            assertThat(Math.abs(up[up.length - 1] - 11)).as("seed %d: after the move up", seed).isLessThanOrEqualTo(1);
            // and down by 9 (more load: the paper's curve A)
            int[] down = climb(h, peakAt(2), 0.005, rnd, 13);
            assertThat(Math.abs(down[down.length - 1] - 2)).as("seed %d: after the move down", seed).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void aTransientDropDoesNotWalkTheDegreeDownToItsMinimum() {
        HillClimbing h = new HillClimbing(0, MAX, 0);
        Random rnd = new Random(7);
        climb(h, peakAt(9), 0.005, rnd, 40);
        // one comparison spoilt by a short extra load on the index's slices: "worse"
        h.update(-1);
        int[] after = climb(h, peakAt(9), 0.005, rnd, 30);
        for (int s = 0; s < after.length; s++) {
            assertThat(after[s]).as("step %d after the transient", s).isGreaterThanOrEqualTo(6);
        }
        assertThat(Math.abs(after[after.length - 1] - 9)).isLessThanOrEqualTo(1);
    }

    @Test
    void neverLeavesItsBoundsAndMovesAtMostOneStep() {
        for (long seed = 0; seed < 50; seed++) {
            Random rnd = new Random(seed);
            int min = rnd.nextInt(5);
            int max = min + rnd.nextInt(6);
            HillClimbing h = new HillClimbing(min, max, min + rnd.nextInt(max - min + 1));
            int before = h.index();
            for (int s = 0; s < 2000; s++) {
                // arbitrary verdicts, with many ties
                int now = h.update(rnd.nextInt(3) - 1);
                assertThat(now).isBetween(min, max);
                assertThat(Math.abs(now - before)).isLessThanOrEqualTo(1);
                before = now;
            }
        }
    }

    @Test
    void equalThroughputKeepsTheDegreeAndChecksBothNeighboursInTurn() {
        HillClimbing h = new HillClimbing(0, MAX, 0);
        assertThat(h.partner()).isEqualTo(1);
        h.update(-1); // the start is worse than the degree above: up
        assertThat(h.index()).isEqualTo(1);
        assertThat(h.partner()).isZero();
        h.update(0);
        assertThat(h.index()).isEqualTo(1);
        assertThat(h.partner()).as("after a tie with 0, compared with 2").isEqualTo(2);
        h.update(0);
        assertThat(h.index()).isEqualTo(1);
        assertThat(h.partner()).isZero();
    }

    @Test
    void theFirstComparisonIsWithTheDegreeAboveAndABetterStartStays() {
        HillClimbing h = new HillClimbing(0, MAX, 0);
        h.update(+1); // one record per frame beats two: stay (clipped at the bound), compare again
        assertThat(h.index()).isZero();
        assertThat(h.partner()).isEqualTo(1);
        HillClimbing top = new HillClimbing(0, 3, 3);
        assertThat(top.partner()).isEqualTo(2);
        assertThat(new HillClimbing(2, 2, 2).update(-1)).isEqualTo(2);
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new HillClimbing(3, 2, 2)).hasMessageContaining("bounds reversed");
        assertThatThrownBy(() -> new HillClimbing(0, 4, 5)).hasMessageContaining("start index 5 outside [0, 4]");
    }
}
