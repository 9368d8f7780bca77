/**
 * The monitored-object tree (MIB) and its sensors: objects, attributes, the per-source gate and
 * fan-out to {@link io.sonde.core.live.mib.Tap}s. Knows nothing of sessions or queues: a
 * subscription reaches a sensor as a Tap.
 */
package io.sonde.core.live.mib;
