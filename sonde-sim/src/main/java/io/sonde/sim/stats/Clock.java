package io.sonde.sim.stats;

/** The source of the current simulated time (milliseconds) for time-based measures. */
@FunctionalInterface
public interface Clock {
    /** Current simulated time in milliseconds. */
    double now();
}
