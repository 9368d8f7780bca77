package io.sonde.analysis.stats;

import java.util.Arrays;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Distribution of non-negative durations (ns) in bounded memory. The first {@link #EXACT_LIMIT}
 * values are kept exactly, so small inputs (and golden tests) get exact nearest-rank percentiles;
 * beyond that the values move into an HdrHistogram with 2 significant digits and int counts
 * (percentiles within 1%; about 5-10 KiB per distribution for latencies up to seconds, so that
 * thousands of operations still fit in a small heap). Count, sum, min and max are always exact.
 */
public final class LatencyDistribution {
    /** Values kept exactly before switching to the histogram. */
    public static final int EXACT_LIMIT = 256;
    /** Precision of the histogram used beyond {@link #EXACT_LIMIT} values. */
    public static final int SIGNIFICANT_DIGITS = 2;

    private long[] exact = new long[16];
    private IntCountsHistogram histogram;
    private long count;
    private long sum;
    private long max = Long.MIN_VALUE;
    private long min = Long.MAX_VALUE;
    private boolean sorted = true;

    public void record(long value) {
        long v = Math.max(0, value);
        count++;
        sum += v;
        if (v > max) max = v;
        if (v < min) min = v;
        if (histogram != null) {
            histogram.recordValue(v);
            return;
        }
        int n = (int) count - 1;
        if (n < EXACT_LIMIT) {
            if (n == exact.length) exact = Arrays.copyOf(exact, Math.min(EXACT_LIMIT, n * 2));
            exact[n] = v;
            sorted = false;
            return;
        }
        // Int counts: half the memory of long counts; one bucket holds up to 2^31-1 values.
        histogram = new IntCountsHistogram(SIGNIFICANT_DIGITS);
        histogram.setAutoResize(true);
        for (int i = 0; i < n; i++) histogram.recordValue(exact[i]);
        histogram.recordValue(v);
        exact = null;
    }

    public long count() {
        return count;
    }

    public long sum() {
        return sum;
    }

    /** Largest value, or 0 when empty. */
    public long max() {
        return count == 0 ? 0 : max;
    }

    /** Smallest value, or 0 when empty. */
    public long min() {
        return count == 0 ? 0 : min;
    }

    /** Arithmetic mean, or 0 when empty. */
    public double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }

    /** True while every value is still kept exactly. */
    public boolean isExact() {
        return histogram == null;
    }

    /**
     * Nearest-rank percentile: the smallest recorded value v such that at least {@code percent}%
     * of the values are &lt;= v (0 when empty).
     */
    public long percentile(double percent) {
        if (count == 0) return 0;
        if (histogram != null) return Math.min(max, histogram.getValueAtPercentile(percent));
        int n = (int) count;
        if (!sorted) {
            Arrays.sort(exact, 0, n);
            sorted = true;
        }
        int rank = (int) Math.ceil(percent / 100.0 * n);
        return exact[Math.max(0, Math.min(n, rank) - 1)];
    }

    /**
     * Counts per bucket of equal width between min and max, for a histogram plot. With the exact
     * values the counts are exact; from the HdrHistogram they are within its precision.
     *
     * @return counts, {@code buckets} long
     */
    public long[] bucketCounts(int buckets) {
        long[] out = new long[buckets];
        if (count == 0) return out;
        long lo = min();
        double width = Math.max(1.0, (double) (max() - lo + 1) / buckets);
        if (histogram == null) {
            for (int i = 0; i < count; i++) out[bucket(exact[i], lo, width, buckets)]++;
        } else {
            for (var v : histogram.recordedValues()) {
                out[bucket(v.getValueIteratedTo(), lo, width, buckets)] += v.getCountAtValueIteratedTo();
            }
        }
        return out;
    }

    private static int bucket(long value, long lo, double width, int buckets) {
        int b = (int) ((value - lo) / width);
        return Math.max(0, Math.min(buckets - 1, b));
    }
}
