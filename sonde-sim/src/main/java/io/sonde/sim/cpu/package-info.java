/**
 * The physical resource layer: {@link io.sonde.sim.cpu.Machine}s with one or more CPUs and a
 * pluggable {@link io.sonde.sim.cpu.CpuScheduler} — processor sharing, round robin, and the
 * Linux 2.4 priority scheduler — running {@link io.sonde.sim.cpu.CpuThread}s.
 */
package io.sonde.sim.cpu;
