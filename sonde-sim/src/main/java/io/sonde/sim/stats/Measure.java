package io.sonde.sim.stats;

/**
 * A named quantity collected during one replication. Its {@link #value()} is the replication's
 * estimate (a mean, a time average, a rate); {@link io.sonde.sim.engine.Experiment} turns the
 * values of all replications into a confidence interval.
 */
public interface Measure {
    /** The measure's name (a key of the JSON output, for instance {@code response_time_ms}). */
    String name();

    /** This replication's value; {@link Double#NaN} when nothing was observed. */
    double value();

    /** Forgets everything observed so far (the warm-up cut). */
    void reset();
}
