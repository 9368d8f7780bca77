package io.sonde.collector.metrics;

import io.sonde.core.prometheus.PrometheusText;

/**
 * A handler that serves its own part of the collector's {@code GET /metrics}: {@link
 * CollectorMetrics} appends the families of every running handler that implements this.
 */
public interface PrometheusSource {
    /** Writes this handler's metric families (called from the HTTP server's threads). */
    void writeMetrics(PrometheusText out);
}
