package io.sonde.sim.stats;

import java.util.Arrays;

/**
 * A measure estimated over independent replications: the mean of the replication values and the
 * half-width of its 95 % confidence interval (Student t with n - 1 degrees of freedom).
 * Replications where the measure was NaN (nothing observed) are left out; with fewer than two
 * values the half-width is NaN.
 */
public final class Estimate {
    private final String name;
    private final double[] values;
    private final double mean;
    private final double stdDev;
    private final double halfWidth;

    /** The estimate of {@code name} from the replication values (NaNs are dropped). */
    public Estimate(String name, double[] replicationValues) {
        this.name = name;
        this.values = Arrays.stream(replicationValues).filter(v -> !Double.isNaN(v)).toArray();
        int n = values.length;
        if (n == 0) {
            mean = Double.NaN;
            stdDev = Double.NaN;
            halfWidth = Double.NaN;
            return;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        mean = sum / n;
        if (n < 2) {
            stdDev = Double.NaN;
            halfWidth = Double.NaN;
            return;
        }
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        stdDev = Math.sqrt(ss / (n - 1));
        halfWidth = StudentT.quantile(0.975, n - 1) * stdDev / Math.sqrt(n);
    }

    /** The measure's name. */
    public String name() {
        return name;
    }

    /** Mean over the replications (NaN when none observed the measure). */
    public double mean() {
        return mean;
    }

    /** Half-width of the 95 % confidence interval (NaN with fewer than two values). */
    public double ci95() {
        return halfWidth;
    }

    /** Sample standard deviation of the replication values. */
    public double stdDev() {
        return stdDev;
    }

    /** Number of replications that contributed a value. */
    public int count() {
        return values.length;
    }

    /** The contributing replication values, in replication order. */
    public double[] values() {
        return values.clone();
    }

    /** Whether {@code x} lies in [mean - ci95, mean + ci95]. */
    public boolean covers(double x) {
        return Math.abs(x - mean) <= halfWidth;
    }

    @Override
    public String toString() {
        return name + "=" + mean + " ±" + halfWidth + " (n=" + values.length + ")";
    }
}
