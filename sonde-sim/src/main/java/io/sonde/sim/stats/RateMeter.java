package io.sonde.sim.stats;

/** Counts occurrences; {@link #value()} is the rate per second of simulated time. */
public final class RateMeter implements Measure {
    private final String name;
    private final Clock clock;
    private long count;
    private double start;

    /** A rate meter starting now. */
    public RateMeter(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
        this.start = clock.now();
    }

    /** One more occurrence. */
    public void increment() {
        count++;
    }

    /** Occurrences since creation or the last reset. */
    public long count() {
        return count;
    }

    @Override
    public String name() {
        return name;
    }

    /** Occurrences per second of simulated time (time is in ms); NaN if no time has passed. */
    @Override
    public double value() {
        double span = clock.now() - start;
        return span > 0 ? count / (span / 1000.0) : Double.NaN;
    }

    @Override
    public void reset() {
        count = 0;
        start = clock.now();
    }
}
