package io.sonde.bench.packing;

/**
 * Latencies in log-spaced buckets (2 % apart, 100 ns .. about 100 s): quantiles within 2 %, exact
 * count and maximum. Thread-safe by synchronization (one receiving thread writes it).
 */
final class LatencyHistogram {
    private static final double RATIO = 1.02;
    private static final double LOG_RATIO = Math.log(RATIO);
    private static final long MIN_NANOS = 100;
    private static final int BUCKETS = 1 + (int) Math.ceil(Math.log(1e11 / MIN_NANOS) / LOG_RATIO);

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long max;

    synchronized void record(long nanos) {
        long v = Math.max(nanos, 0);
        int b = v <= MIN_NANOS ? 0 : Math.min(BUCKETS - 1, 1 + (int) (Math.log((double) v / MIN_NANOS) / LOG_RATIO));
        counts[b]++;
        total++;
        if (v > max) max = v;
    }

    synchronized long count() {
        return total;
    }

    synchronized long maxNanos() {
        return max;
    }

    /** The q-quantile (0 < q <= 1) as the upper edge of its bucket, at most the maximum; 0 when empty. */
    synchronized long quantileNanos(double q) {
        if (total == 0) return 0;
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts[b];
            if (seen >= rank) return Math.min(max, (long) (MIN_NANOS * Math.pow(RATIO, b)));
        }
        return max;
    }
}
