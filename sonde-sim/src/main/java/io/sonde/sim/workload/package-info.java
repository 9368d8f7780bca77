/**
 * Workloads: open arrival processes (Poisson, deterministic, trace replay), closed client
 * populations with think times, and the recorder of response times.
 */
package io.sonde.sim.workload;
