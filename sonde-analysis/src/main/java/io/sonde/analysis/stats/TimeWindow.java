package io.sonde.analysis.stats;

/**
 * A half-open interval of wall-clock time [from, to) in ns since the Unix epoch. An execution is
 * in the window when its start is.
 */
public record TimeWindow(long fromNanos, long toNanos) {
    /** Every time. */
    public static final TimeWindow ALL = new TimeWindow(Long.MIN_VALUE, Long.MAX_VALUE);

    public boolean contains(long wallNanos) {
        return wallNanos >= fromNanos && wallNanos < toNanos;
    }

    public boolean isAll() {
        return fromNanos == Long.MIN_VALUE && toNanos == Long.MAX_VALUE;
    }
}
