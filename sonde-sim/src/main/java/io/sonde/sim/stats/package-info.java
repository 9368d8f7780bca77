/**
 * Measures collected in a replication ({@link io.sonde.sim.stats.Tally},
 * {@link io.sonde.sim.stats.TimeWeighted}, {@link io.sonde.sim.stats.RateMeter}, gathered in
 * {@link io.sonde.sim.stats.Measures} with the warm-up cut) and their combination over
 * replications into 95 % confidence intervals ({@link io.sonde.sim.stats.Estimate},
 * {@link io.sonde.sim.stats.ExperimentResult}).
 */
package io.sonde.sim.stats;
