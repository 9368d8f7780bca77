/**
 * The Prometheus text exposition format (version 0.0.4) shared by the agent's endpoint
 * ({@code prometheus.port}) and the collector's {@code GET /metrics}: the writer ({@link
 * io.sonde.core.prometheus.PrometheusText}), per-operation statistics and their families, and a
 * minimal HTTP endpoint. See docs/prometheus.md.
 */
package io.sonde.core.prometheus;
