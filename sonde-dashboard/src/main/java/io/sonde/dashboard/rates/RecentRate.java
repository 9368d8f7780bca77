package io.sonde.dashboard.rates;

/**
 * A count and its rate over the last few whole seconds: counts go into one-second buckets of a
 * ring, and {@link #perSecond} averages the {@link #WINDOW_SECONDS} seconds before the current one
 * (the current second is still filling). Thread-safe; one lock per call, meant for per-frame
 * counting (not per record).
 */
public final class RecentRate {
    /** The seconds the rate is averaged over. */
    public static final int WINDOW_SECONDS = 10;

    private final long[] buckets = new long[WINDOW_SECONDS + 1];
    private final long[] bucketSecond = new long[WINDOW_SECONDS + 1];
    private long total;
    private long firstSecond = Long.MIN_VALUE;

    /** Adds {@code n} at time {@code nowMillis} (ms since the epoch). */
    public synchronized void add(long nowMillis, long n) {
        long second = Math.floorDiv(nowMillis, 1000);
        if (firstSecond == Long.MIN_VALUE) firstSecond = second;
        int i = (int) Math.floorMod(second, (long) buckets.length);
        if (bucketSecond[i] != second) {
            bucketSecond[i] = second;
            buckets[i] = 0;
        }
        buckets[i] += n;
        total += n;
    }

    /** Everything added so far. */
    public synchronized long total() {
        return total;
    }

    /**
     * The mean per second over the whole seconds of the window before the current one; over fewer
     * seconds while the count is younger than the window; null before one whole second has passed
     * since the first {@link #add}.
     */
    public synchronized Double perSecond(long nowMillis) {
        long now = Math.floorDiv(nowMillis, 1000);
        if (firstSecond == Long.MIN_VALUE || now <= firstSecond) return firstSecond == Long.MIN_VALUE ? 0.0 : null;
        long from = Math.max(firstSecond, now - WINDOW_SECONDS);
        long sum = 0;
        for (int k = 0; k < buckets.length; k++) {
            if (bucketSecond[k] >= from && bucketSecond[k] < now) sum += buckets[k];
        }
        return sum / (double) (now - from);
    }
}
