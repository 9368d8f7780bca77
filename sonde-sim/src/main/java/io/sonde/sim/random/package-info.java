/**
 * Reproducible random numbers: named {@link io.sonde.sim.random.RandomStream}s derived from
 * (seed, replication, name), {@link io.sonde.sim.random.Distribution}s, and
 * {@link io.sonde.sim.random.SampleSource}s (sampled distributions, replayed traces).
 */
package io.sonde.sim.random;
