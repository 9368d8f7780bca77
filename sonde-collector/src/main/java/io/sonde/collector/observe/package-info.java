/**
 * The collector's own observe endpoint: its naming service (the agents that connected) served as
 * a monitored-object tree over the live protocol, so {@code sonde ls}, {@code get} and
 * {@code watch} work on a collector as on any observed process (docs/collector.md, "Naming").
 */
package io.sonde.collector.observe;
