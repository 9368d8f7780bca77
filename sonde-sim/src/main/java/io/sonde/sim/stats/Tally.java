package io.sonde.sim.stats;

/**
 * Statistics of observations that each count once (waiting times, response times): count, mean,
 * variance (Welford's update, numerically stable), minimum and maximum. {@link #value()} is the
 * mean. Allocation-free.
 */
public final class Tally implements Measure {
    private final String name;
    private long count;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    /** A tally named {@code name}. */
    public Tally(String name) {
        this.name = name;
    }

    /** Records one observation. */
    public void add(double x) {
        long n = ++count;
        double delta = x - mean;
        mean += delta / n;
        m2 += delta * (x - mean);
        if (x < min) {
            min = x;
        }
        if (x > max) {
            max = x;
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The mean, NaN without observations. */
    @Override
    public double value() {
        return mean();
    }

    /** Number of observations. */
    public long count() {
        return count;
    }

    /** The mean, NaN without observations. */
    public double mean() {
        return count == 0 ? Double.NaN : mean;
    }

    /** Sample variance (n - 1 denominator), NaN with fewer than two observations. */
    public double variance() {
        return count < 2 ? Double.NaN : m2 / (count - 1);
    }

    /** Smallest observation, NaN without observations. */
    public double min() {
        return count == 0 ? Double.NaN : min;
    }

    /** Largest observation, NaN without observations. */
    public double max() {
        return count == 0 ? Double.NaN : max;
    }

    @Override
    public void reset() {
        count = 0;
        mean = 0;
        m2 = 0;
        min = Double.POSITIVE_INFINITY;
        max = Double.NEGATIVE_INFINITY;
    }
}
