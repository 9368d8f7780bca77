package io.sonde.bench.real.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The workload's slice boundaries: each tenth's first operation, once, and the end. */
class SlicesTest {

    @Test
    void eachBoundaryIsTheFirstOperationOfItsTenthAndIsTakenOnce() {
        Slices s = new Slices(25, System.nanoTime(), () -> {});
        for (long op = 0; op < 25; op++) {
            s.starting(op);
            if (op == 12) {
                s.starting(op); // a second notice of the same boundary keeps the first time
            }
        }
        for (int k = 1; k < Slices.COUNT; k++) {
            assertThat(s.end(k)).as("slice " + k).isPositive();
        }
        for (int k = 2; k < Slices.COUNT; k++) {
            assertThat(s.end(k)).as("slice " + k).isGreaterThanOrEqualTo(s.end(k - 1));
        }
        assertThat(s.end(Slices.COUNT)).isZero();
        s.finished(System.nanoTime());
        assertThat(s.end(Slices.COUNT)).isGreaterThanOrEqualTo(s.end(Slices.COUNT - 1));
    }

    @Test
    void fewerOperationsThanSlicesLeaveTheMissingBoundariesAtZero() {
        Slices s = new Slices(3, System.nanoTime(), () -> {});
        for (long op = 0; op < 3; op++) {
            s.starting(op);
        }
        // ops 1 and 2 fall in tenths 3 and 6 (1 * 10 / 3, 2 * 10 / 3), ending tenths 2 and 5; no other tenth has an operation
        assertThat(s.end(3)).isPositive();
        assertThat(s.end(6)).isPositive();
        assertThat(s.end(4)).isZero();
        assertThat(s.end(5)).isZero();
    }

    @Test
    void theHalfCallbackRunsOnceWhenTheFirstOperationOfTheLastHalfStarts() {
        int[] calls = {0};
        long[] atOp = {-1};
        long[] op = {0};
        Slices s = new Slices(20, System.nanoTime(), () -> {
            calls[0]++;
            atOp[0] = op[0];
        });
        for (op[0] = 0; op[0] < 20; op[0]++) {
            s.starting(op[0]);
            s.starting(op[0]); // a second notice changes nothing
        }
        assertThat(calls[0]).isEqualTo(1);
        assertThat(atOp[0]).isEqualTo(10);
    }
}
