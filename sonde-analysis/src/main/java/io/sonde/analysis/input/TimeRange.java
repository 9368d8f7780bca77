package io.sonde.analysis.input;

/**
 * The wall-clock span of a log, ns since the Unix epoch: from the earliest to the latest frame
 * time found in it.
 */
public record TimeRange(long startNanos, long endNanos) {
    public long durationNanos() {
        return Math.max(0, endNanos - startNanos);
    }
}
