package io.sonde.core.pipeline.packing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The adaptive mode end to end on simulated time: a scripted writer whose CPU cost per record
 * depends on the degree index (a curve), with seeded noise per measuring slice, drives
 * {@link Packing#observe} exactly as the writer thread does.
 */
class AdaptivePackingTest {
    static final long MS = 1_000_000L;
    static final long INTERVAL = 10 * MS;
    static final long SLICE = INTERVAL / (2 * PairedComparison.PAIRS);

    /** A scripted writer thread: per slice, {@code records} records at the cost the curve gives the degree in effect. */
    static final class ScriptedWriter {
        final long[] cpu = {0};
        final Packing packing;
        final Random rnd;
        final double noise;
        long now;
        long written;
        /** Bytes of the records written (a running total), at {@link #recordBytes} or {@link #otherRecordBytes} each. */
        long bytes;
        long records = 1000;
        long recordBytes = 100;
        /** Load factor on every cost at a slice number (1: none). */
        java.util.function.LongToDoubleFunction load = s -> 1;
        long slices;
        /** The largest degree a slice ran at. */
        int largestInEffect;
        /** The longest run of slices between two decisions. */
        long longestWithoutDecision;
        private long sinceDecision;
        /** A changing source (0: none): every {@code phaseSlices} slices the records switch to {@link #otherCurve} and back. */
        long phaseSlices;
        IntToDoubleFunction otherCurve;
        long otherRecords;
        long otherRecordBytes = 100;

        ScriptedWriter(int maxDegree, double noise, long seed) {
            this.packing = Packing.adaptive(maxDegree, 50 * MS, INTERVAL, () -> cpu[0]);
            this.rnd = new Random(seed);
            this.noise = noise;
            packing.observe(0, 0, 0);
        }

        /** Runs until {@code decisions} more comparisons were decided; returns the index after each. */
        int[] decide(IntToDoubleFunction costNanosPerRecord, int decisions) {
            int[] indices = new int[decisions];
            long target = packing.adaptations() + decisions;
            long guard = slices + 1000L * decisions;
            while (packing.adaptations() < target && slices < guard) {
                int index = 31 - Integer.numberOfLeadingZeros(packing.recordsPerFrame());
                largestInEffect = Math.max(largestInEffect, packing.recordsPerFrame());
                boolean other = phaseSlices > 0 && (slices / phaseSlices) % 2 == 1;
                IntToDoubleFunction curve = other ? otherCurve : costNanosPerRecord;
                long n = other ? otherRecords : records;
                double cost = curve.applyAsDouble(index) * load.applyAsDouble(slices) * Math.exp(noise * rnd.nextGaussian());
                cpu[0] += (long) (cost * n);
                written += n;
                bytes += n * (other ? otherRecordBytes : recordBytes);
                now += SLICE;
                slices++;
                long before = packing.adaptations();
                packing.observe(now, written, bytes);
                sinceDecision++;
                if (packing.adaptations() > before) {
                    indices[(int) (before - (target - decisions))] = packing.degreeIndex();
                    longestWithoutDecision = Math.max(longestWithoutDecision, sinceDecision);
                    sinceDecision = 0;
                }
            }
            assertThat(packing.adaptations()).as("decisions taken").isEqualTo(target);
            return indices;
        }
    }

    /** CPU ns per record of a unimodal throughput curve with its peak at index {@code opt} (neighbours of the peak 5.7 % apart). */
    static IntToDoubleFunction costWithPeakAt(int opt) {
        return i -> 1e6 / (1000 * Math.exp(-(i - opt) * (i - opt) / 18.0));
    }

    @Test
    void convergesToTheOptimumOfAUnimodalCurveAndStaysThere() {
        for (int opt = 1; opt <= 12; opt++) {
            for (long seed = 0; seed < 10; seed++) {
                ScriptedWriter w = new ScriptedWriter(1 << 14, 0.02, seed);
                int[] v = w.decide(costWithPeakAt(opt), opt + 150);
                int firstNear = -1;
                for (int s = 0; s < v.length && firstNear < 0; s++) {
                    if (Math.abs(v[s] - opt) <= 1) firstNear = s;
                }
                // one step per decision on the way up, and a few ties of slack
                assertThat(firstNear).as("opt %d seed %d: decisions to reach the peak's neighbourhood", opt, seed).isBetween(0, opt + 3);
                for (int s = firstNear; s < v.length; s++) {
                    assertThat(Math.abs(v[s] - opt)).as("opt %d seed %d decision %d", opt, seed, s).isLessThanOrEqualTo(1);
                }
            }
        }
    }

    @Test
    void followsAChangingOptimumUpAndDown() {
        for (long seed = 0; seed < 10; seed++) {
            ScriptedWriter w = new ScriptedWriter(1 << 14, 0.02, seed);
            w.decide(costWithPeakAt(3), 30);
            assertThat(Math.abs(w.packing.degreeIndex() - 3)).isLessThanOrEqualTo(1);
            // smaller records: the optimum moves up by 8
            int[] up = w.decide(costWithPeakAt(11), 20);
            assertThat(Math.abs(up[up.length - 1] - 11)).as("seed %d: after the move up", seed).isLessThanOrEqualTo(1);
            // more load per frame: down by 9
            int[] down = w.decide(costWithPeakAt(2), 20);
            assertThat(Math.abs(down[down.length - 1] - 2)).as("seed %d: after the move down", seed).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void theDegreeInEffectIsTheLargestPowerOfTwoWhoseRecordsFitInAFrame() {
        // the writer's cost per record keeps falling with the degree (as measured for 1,000-byte
        // records), so the rule climbs as far as it can; 262,000 bytes of room hold 262 records of
        // 1,000 bytes: 256 is the largest degree a frame runs at, never the cut-short 262
        IntToDoubleFunction fallingCost = i -> 100 + 10_000.0 / (1 << i);
        for (long seed = 0; seed < 10; seed++) {
            ScriptedWriter w = new ScriptedWriter(1 << 14, 0.02, seed);
            w.recordBytes = 1000;
            w.packing.fitFrames(262_000);
            w.decide(fallingCost, 60);
            assertThat(w.largestInEffect).as("seed %d: the largest degree a slice ran at", seed).isEqualTo(256);
            assertThat(w.packing.largestDegree()).isEqualTo(256);
            // the records shrink to 100 bytes (2,620 fit): the degree climbs on to 2,048
            w.recordBytes = 100;
            w.largestInEffect = 0;
            w.decide(fallingCost, 30);
            assertThat(w.largestInEffect).as("seed %d: after the records shrank", seed).isEqualTo(2048);
            // and grow to 10,000 bytes (26 fit): the degree in effect comes down to 16 at the next decision
            w.recordBytes = 10_000;
            w.decide(fallingCost, 1);
            w.largestInEffect = 0;
            w.decide(fallingCost, 3);
            assertThat(w.largestInEffect).as("seed %d: after the records grew", seed).isEqualTo(16);
        }
        ScriptedWriter unknown = new ScriptedWriter(1 << 14, 0.02, 1);
        unknown.recordBytes = 1000; // no fitFrames: the degree is not limited by record size
        unknown.decide(fallingCost, 60);
        assertThat(unknown.largestInEffect).isGreaterThan(256);
    }

    @Test
    void aLoadSwingingByHalfAroundTheMeasurementsDoesNotMislead() {
        // the machine's other load multiplies every cost by 0.5 .. 1.5 over 200 slices (20 intervals):
        // consecutive intervals differ by far more than neighbouring degrees, adjacent slices do not
        for (long seed = 0; seed < 10; seed++) {
            ScriptedWriter w = new ScriptedWriter(1 << 14, 0.02, seed);
            w.load = s -> 1 + 0.5 * Math.sin(2 * Math.PI * s / 200.0);
            int[] v = w.decide(costWithPeakAt(8), 150);
            for (int s = 20; s < v.length; s++) {
                assertThat(Math.abs(v[s] - 8)).as("seed %d decision %d", seed, s).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void doesNotRandomWalkOnAFlatCurveUnderNoise() {
        // every degree costs the same, 10 % noise per slice: a sequential comparison would move at
        // every step; the paired test moves on about 5 % of its decisions (its false-positive rate)
        int moves = 0;
        int decisions = 0;
        int nearStart = 0;
        for (long seed = 0; seed < 20; seed++) {
            ScriptedWriter w = new ScriptedWriter(1 << 14, 0.10, seed);
            int previous = 0;
            for (int index : w.decide(i -> 1000, 300)) {
                if (index != previous) moves++;
                if (index <= 2) nearStart++;
                previous = index;
                decisions++;
            }
        }
        assertThat((double) moves / decisions).as("share of decisions that moved").isLessThan(0.10);
        ScriptedWriter w = new ScriptedWriter(1 << 14, 0.10, 99);
        w.decide(i -> 1000, 300);
        // a tie keeps the degree but not the comparisons: the next interval compares the other neighbour
        assertThat(w.longestWithoutDecision).as("slices between two decisions").isEqualTo(2L * PairedComparison.PAIRS);
        // what moves is a slow walk (a move is as likely to be undone as continued), not a drift
        assertThat((double) nearStart / decisions).as("share of decisions within 2 steps of the start").isGreaterThan(0.5);
    }

    @Test
    void staysWithinTheLargestDegree() {
        ScriptedWriter w = new ScriptedWriter(100, 0.02, 1); // degrees 1 .. 64
        for (int index : w.decide(i -> 1000.0 / (1 + i), 40)) assertThat(index).isBetween(0, 6);
        assertThat(w.packing.recordsPerFrame()).isBetween(32, 64);
        assertThat(w.packing.degreeIndex()).isEqualTo(6);
    }

    @Test
    void anIdleSourceNeverMovesTheDegree() {
        ScriptedWriter w = new ScriptedWriter(1 << 14, 0.02, 1);
        w.decide(costWithPeakAt(6), 20);
        int settled = w.packing.degreeIndex();
        long adaptations = w.packing.adaptations();
        // no records for a long time: no cost can be measured, so no comparison is decided
        for (int s = 0; s < 10_000; s++) {
            w.now += SLICE;
            w.cpu[0] += 50_000; // the writer still wakes up and polls
            w.packing.observe(w.now, w.written, w.bytes);
        }
        assertThat(w.packing.adaptations()).isEqualTo(adaptations);
        assertThat(w.packing.degreeIndex()).isEqualTo(settled);
    }

    @Test
    void aSourceBoundWriterKeepsItsDegree() {
        // the wall-clock measure when the source is the bottleneck: every degree writes the same
        // records per second, so the comparisons tie and the degree stays where it was
        Packing p = Packing.adaptive(1 << 14, 50 * MS, INTERVAL, null);
        long now = 0;
        long written = 0;
        p.observe(now, written, 0);
        Random rnd = new Random(3);
        int moves = 0;
        int previous = p.degreeIndex();
        for (int s = 0; s < 2000; s++) {
            now += SLICE;
            written += 900 + rnd.nextInt(200); // the source's rate, whatever the degree
            p.observe(now, written, 0);
            if (p.degreeIndex() != previous) moves++;
            previous = p.degreeIndex();
        }
        assertThat(p.adaptations()).isEqualTo(200);
        assertThat(moves).as("moves in 200 decisions").isLessThan(20);
    }

    @Test
    void followsASourceWhoseRecordSizeAlternatesEveryFewIntervals() {
        // the study's changing source: small records (best degree 2^10) and 20 x larger ones, each
        // 20 x dearer per record (best 2^7), alternating every 2.3 intervals (1 s phases against
        // 0.5 s intervals, not aligned). A pair of slices that straddles a switch differs by a
        // factor of 20, so an interval holding a switch ties; the others must still decide, at
        // once, and carry the degree up from 1 to between the two peaks.
        for (long seed = 0; seed < 10; seed++) {
            ScriptedWriter w = new ScriptedWriter(1 << 14, 0.10, seed);
            w.phaseSlices = 23;
            w.otherRecords = w.records / 20;
            IntToDoubleFunction large = costWithPeakAt(7);
            w.otherCurve = i -> 20 * large.applyAsDouble(i);
            int[] v = w.decide(costWithPeakAt(10), 130);
            assertThat(w.longestWithoutDecision).as("seed %d: slices between two decisions", seed).isEqualTo(2L * PairedComparison.PAIRS);
            int firstNear = -1;
            for (int d = 0; d < v.length && firstNear < 0; d++) {
                if (v[d] >= 6) firstNear = d;
            }
            // 30 intervals: the study's warm-up (15 s at packing.interval.ms = 500)
            assertThat(firstNear).as("seed %d: decisions to climb from 1 to 2^6", seed).isBetween(0, 30);
            int inside = 0;
            for (int d = firstNear; d < v.length; d++) {
                if (v[d] >= 6 && v[d] <= 11) inside++;
            }
            assertThat((double) inside / (v.length - firstNear)).as("seed %d: share of decisions between the peaks (+-1)", seed)
                    .isGreaterThanOrEqualTo(0.9);
        }
    }
}
