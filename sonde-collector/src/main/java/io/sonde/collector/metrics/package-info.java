/**
 * Metrics of a running collector in the Prometheus text exposition format (version 0.0.4): the
 * {@code metrics} handler's per-operation calls, errors and latency histograms
 * ({@link io.sonde.collector.metrics.MetricsHandler}), and the pipeline's health (frames and bytes
 * per agent, drops per handler, queue depths, connections), written by
 * {@link io.sonde.collector.metrics.CollectorMetrics}. Served at {@code GET /metrics} of
 * {@code sonde collector --http PORT}; see docs/prometheus.md.
 */
package io.sonde.collector.metrics;
