/**
 * The logical resource layer (thesis 5.2, DAPS building blocks): threads running programs of
 * steps ({@link io.sonde.sim.blocks.SimThread}, {@link io.sonde.sim.blocks.Program}), FIFO
 * request queues, mutexes, network links, and the requests that travel through them.
 */
package io.sonde.sim.blocks;
