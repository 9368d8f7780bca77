package io.sonde.core.prometheus;

import java.util.Arrays;

/**
 * Calls, errors and a cumulative-ready latency histogram of one operation of one agent, over the
 * collector's lifetime. Written by the {@code metrics} handler's thread, read by scrapes: every
 * method is synchronized (uncontended but for the rare scrape), and {@link #snapshot()} gives a
 * consistent copy, so a scrape never sees a count that disagrees with its buckets.
 */
public final class OperationStats {
    /** Upper bounds of the histogram's buckets, in nanoseconds (100 µs to 10 s; +Inf is implicit). */
    public static final long[] BOUNDS_NANOS = {
        100_000L, 250_000L, 500_000L, 1_000_000L, 2_500_000L, 5_000_000L, 10_000_000L, 25_000_000L, 50_000_000L,
        100_000_000L, 250_000_000L, 500_000_000L, 1_000_000_000L, 2_500_000_000L, 5_000_000_000L, 10_000_000_000L};

    private final long[] buckets = new long[BOUNDS_NANOS.length + 1]; // per bucket, not cumulative; last: above every bound
    private long calls;
    private long errors;
    private long sumNanos;

    /** Counts one execution. Negative durations (clock steps) count as 0. */
    public synchronized void add(long durationNanos, boolean error) {
        long d = Math.max(0, durationNanos);
        calls++;
        if (error) errors++;
        sumNanos += d;
        int i = Arrays.binarySearch(BOUNDS_NANOS, d);
        buckets[i >= 0 ? i : -i - 1]++; // le: a value equal to a bound belongs to that bound's bucket
    }

    /** A consistent copy of the counters. */
    public synchronized Snapshot snapshot() {
        long[] cumulative = new long[buckets.length];
        long running = 0;
        for (int i = 0; i < buckets.length; i++) {
            running += buckets[i];
            cumulative[i] = running;
        }
        return new Snapshot(calls, errors, sumNanos, cumulative);
    }

    /**
     * Counters at one moment.
     *
     * @param calls executions (paired ENTER and EXIT)
     * @param errors those that ended with an exception
     * @param sumNanos their summed wall time
     * @param cumulative per bound of {@link #BOUNDS_NANOS} the executions at most that long, then all ({@code +Inf})
     */
    public record Snapshot(long calls, long errors, long sumNanos, long[] cumulative) {}
}
