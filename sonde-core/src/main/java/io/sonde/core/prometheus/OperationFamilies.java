package io.sonde.core.prometheus;

import java.util.List;

/**
 * The per-operation metric families, written alike by the collector ({@code GET /metrics} of
 * {@code sonde collector --http}) and by an agent's own endpoint ({@code prometheus.port}):
 * {@code sonde_operation_calls_total}, {@code sonde_operation_errors_total} and the histogram
 * {@code sonde_operation_duration_seconds}, labelled by agent and operation (docs/prometheus.md).
 */
public final class OperationFamilies {
    private OperationFamilies() {}

    /** One series: an operation of an agent and its counters. */
    public record Series(String agent, String operation, OperationStats.Snapshot stats) {}

    /** Writes the three families for {@code series} (in the order given). */
    public static void write(PrometheusText out, List<Series> series) {
        out.family("sonde_operation_calls_total", "counter", "Monitored executions (paired ENTER and EXIT) per agent and operation.");
        for (Series s : series) {
            out.sample("sonde_operation_calls_total", s.stats().calls(), "agent", s.agent(), "operation", s.operation());
        }
        out.family("sonde_operation_errors_total", "counter", "Monitored executions that ended with an exception.");
        for (Series s : series) {
            out.sample("sonde_operation_errors_total", s.stats().errors(), "agent", s.agent(), "operation", s.operation());
        }
        out.family("sonde_operation_duration_seconds", "histogram", "Wall time of monitored executions.");
        for (Series e : series) {
            String agent = e.agent();
            String op = e.operation();
            OperationStats.Snapshot s = e.stats();
            long[] c = s.cumulative();
            for (int i = 0; i < OperationStats.BOUNDS_NANOS.length; i++) {
                out.sample("sonde_operation_duration_seconds_bucket", c[i], "agent", agent, "operation", op, "le",
                        PrometheusText.format(OperationStats.BOUNDS_NANOS[i] / 1e9));
            }
            out.sample("sonde_operation_duration_seconds_bucket", c[c.length - 1], "agent", agent, "operation", op, "le", "+Inf");
            out.sample("sonde_operation_duration_seconds_sum", s.sumNanos() / 1e9, "agent", agent, "operation", op);
            out.sample("sonde_operation_duration_seconds_count", s.calls(), "agent", agent, "operation", op);
        }
    }
}
