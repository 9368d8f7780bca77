package io.sonde.analysis.correction;

/**
 * The cost one monitored execution's probes (its ENTER and EXIT together) add to the time of the
 * executions around it, as measured by {@link Calibration}. Perturbation correction subtracts it
 * once per nested execution; see docs/analysis.md.
 *
 * @param wallNanos wall-clock cost per probe pair, ns
 * @param cpuNanos CPU cost per probe pair, ns
 */
public record ProbeCost(long wallNanos, long cpuNanos) {
    /** No correction. */
    public static final ProbeCost NONE = new ProbeCost(0, 0);

    public ProbeCost {
        if (wallNanos < 0 || cpuNanos < 0) throw new IllegalArgumentException("probe cost must not be negative");
    }

    public boolean isNone() {
        return wallNanos == 0 && cpuNanos == 0;
    }
}
