package io.sonde.lab.load;

import java.util.Arrays;

/**
 * The response times of the measured requests of one workload run, and the wall time over which
 * they completed: mean, percentiles and throughput.
 */
public final class ResponseTimes {
    private final long[] sortedNanos;
    private final double meanNanos;
    private final long windowNanos;
    private final double clientCpuMsPerRequest;

    /**
     * @param nanos response time of each measured request (copied)
     * @param windowNanos wall time from the first measured send to the last measured reply
     */
    public ResponseTimes(long[] nanos, long windowNanos) {
        this(nanos, windowNanos, Double.NaN);
    }

    /**
     * @param nanos response time of each measured request (copied)
     * @param windowNanos wall time from the first measured send to the last measured reply
     * @param clientCpuMsPerRequest the generator's CPU time per request (NaN: not measured)
     */
    public ResponseTimes(long[] nanos, long windowNanos, double clientCpuMsPerRequest) {
        this.clientCpuMsPerRequest = clientCpuMsPerRequest;
        this.sortedNanos = nanos.clone();
        Arrays.sort(sortedNanos);
        double sum = 0;
        for (long n : sortedNanos) {
            sum += n;
        }
        this.meanNanos = sortedNanos.length == 0 ? Double.NaN : sum / sortedNanos.length;
        this.windowNanos = windowNanos;
    }

    /** Measured requests. */
    public int count() {
        return sortedNanos.length;
    }

    /** Mean response time in ms (NaN without requests). */
    public double meanMillis() {
        return meanNanos / 1e6;
    }

    /** The {@code p}-th percentile (0 < p <= 100, nearest rank) in ms (NaN without requests). */
    public double percentileMillis(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sortedNanos.length);
        return sortedNanos[Math.max(0, rank - 1)] / 1e6;
    }

    /** Measured requests per second of the window. */
    public double throughputPerSecond() {
        return windowNanos <= 0 ? Double.NaN : sortedNanos.length / (windowNanos / 1e9);
    }

    /** The load generator's CPU time per request in ms (its threads' own CPU clocks), NaN if not measured. */
    public double clientCpuMsPerRequest() {
        return clientCpuMsPerRequest;
    }

    /** The wall time of the measurement window in seconds. */
    public double windowSeconds() {
        return windowNanos / 1e9;
    }
}
