package io.sonde.bench.packing;

import java.util.Arrays;

/**
 * One throughput ratio per confirmation round, numerator and denominator measured in the same
 * round (so a change of the machine's load between rounds hits both alike), and its summary: the
 * median (the mean of the middle two for an even count) and the range.
 */
record PairedRatio(double[] perRound) {
    PairedRatio {
        if (perRound.length == 0) throw new IllegalArgumentException("a paired ratio needs at least one round");
        perRound = perRound.clone();
    }

    double median() {
        double[] s = sorted();
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    double min() {
        return sorted()[0];
    }

    double max() {
        return sorted()[perRound.length - 1];
    }

    private double[] sorted() {
        double[] s = perRound.clone();
        Arrays.sort(s);
        return s;
    }
}
