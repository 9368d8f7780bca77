package io.sonde.bench.overhead;

import java.util.Arrays;

/**
 * Summary of call durations pooled over all runs of one configuration, in microseconds.
 *
 * @param count    measured calls
 * @param meanUs   arithmetic mean
 * @param medianUs median (mean of the two middle values for an even count)
 * @param minUs    smallest
 * @param maxUs    largest
 */
public record Stats(long count, double meanUs, double medianUs, double minUs, double maxUs) {

    /** Summarises durations given in nanoseconds; sorts {@code nanos} in place. */
    public static Stats of(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no measurements");
        }
        Arrays.sort(nanos);
        double sum = 0;
        for (long n : nanos) {
            sum += n;
        }
        int mid = nanos.length / 2;
        double median = nanos.length % 2 == 1 ? nanos[mid] : (nanos[mid - 1] + (double) nanos[mid]) / 2.0;
        return new Stats(nanos.length, sum / nanos.length / 1000.0, median / 1000.0, nanos[0] / 1000.0,
                nanos[nanos.length - 1] / 1000.0);
    }
}
