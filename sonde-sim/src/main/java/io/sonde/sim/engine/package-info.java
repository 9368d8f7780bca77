/**
 * The discrete-event core: {@link io.sonde.sim.engine.Simulation} (clock in milliseconds, event
 * list, random streams), reusable {@link io.sonde.sim.engine.Event}s, and
 * {@link io.sonde.sim.engine.Experiment} for independent replications run in parallel.
 */
package io.sonde.sim.engine;
