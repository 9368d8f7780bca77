/**
 * Autonomous probes: JVM and system metrics as sampled sensors under {@code jvm/} and
 * {@code system/}, updated by one sampler thread only while some gate of them is open.
 */
package io.sonde.core.live.probe;
