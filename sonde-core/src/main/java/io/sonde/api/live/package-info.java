/**
 * The live layer's API: the monitored-object tree (MIB), attribute and object sensors, observer
 * sessions with per-subscription QoS, pull and introspection.
 *
 * <p>Users see the interfaces and value types of this package only; the implementation lives in
 * {@code io.sonde.core.live} and its sub-packages (as OpenTelemetry's SDK implements its API). The
 * process-wide tree is {@code io.sonde.api.Sonde.live()}. See {@code docs/live.md}.
 */
package io.sonde.api.live;
