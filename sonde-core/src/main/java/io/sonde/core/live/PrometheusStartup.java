package io.sonde.core.live;

import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.LiveTree;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.pipeline.ProbeTally;
import io.sonde.core.pipeline.RecordCounts;
import io.sonde.core.prometheus.OperationFamilies;
import io.sonde.core.prometheus.PrometheusEndpoint;
import io.sonde.core.prometheus.PrometheusText;
import io.sonde.format.DropReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The agent's own Prometheus endpoint ({@code prometheus.port}, bound to {@code prometheus.bind},
 * 127.0.0.1 by default): per operation the calls, errors and latency histogram — aggregated by the
 * writer thread from the records it drains ({@link Pipeline#enableOperationStats()}), so the probes
 * do no more work — the records produced, written, dropped by reason and in flight, and the
 * numeric attributes of the live tree. Nothing of it runs unless the port is set.
 */
public final class PrometheusStartup {
    private PrometheusStartup() {}

    /**
     * Starts the endpoint if the pipeline's configuration sets {@code prometheus.port}; else returns
     * null and costs nothing.
     *
     * @param live the live tree whose numeric attributes are served (asked for on each scrape)
     * @throws java.io.UncheckedIOException if the port cannot be bound
     */
    public static PrometheusEndpoint startIfConfigured(Pipeline pipeline, Supplier<LiveTree> live) {
        SondeConfig c = pipeline.config();
        if (c.get(ConfigKey.PROMETHEUS_PORT).isBlank()) return null;
        ProbeTally tally = pipeline.enableOperationStats();
        return PrometheusEndpoint.start(c.get(ConfigKey.PROMETHEUS_BIND).trim(), c.getInt(ConfigKey.PROMETHEUS_PORT),
                () -> render(pipeline, tally, live.get()));
    }

    /**
     * Writes the family {@code sonde_live_value}: every numeric attribute of {@code tree} (longs,
     * doubles, booleans as 0 and 1) read now, labelled by its path and unit and by {@code labels}
     * (name, value, ...) — an agent's live tree, or the collector's naming tree.
     */
    public static void writeLiveValues(PrometheusText out, LiveTree tree, String... labels) {
        out.family("sonde_live_value", "gauge", "Numeric attributes of the live monitored-object tree (booleans as 0 and 1), by path.");
        for (AttributeValue v : tree.pull("**")) {
            double x;
            if (v.value() instanceof Number num) x = num.doubleValue();
            else if (v.value() instanceof Boolean b) x = b ? 1 : 0;
            else continue;
            String[] all = java.util.Arrays.copyOf(labels, labels.length + 4);
            all[labels.length] = "path";
            all[labels.length + 1] = v.path();
            all[labels.length + 2] = "unit";
            all[labels.length + 3] = v.unit() == null ? "" : v.unit();
            out.sample("sonde_live_value", x, all);
        }
    }

    /** The exposition now. */
    static String render(Pipeline pipeline, ProbeTally tally, LiveTree live) {
        PrometheusText out = new PrometheusText();
        String agent = pipeline.agentId().toString();
        List<OperationFamilies.Series> series = new ArrayList<>();
        tally.forEachOperation((stats, id) -> {
            String name = pipeline.registry().probeName(id);
            series.add(new OperationFamilies.Series(agent, name != null ? name : "<probe " + id + ">", stats));
        });
        series.sort(Comparator.comparing(OperationFamilies.Series::operation));
        OperationFamilies.write(out, series);

        RecordCounts n = pipeline.counters();
        out.family("sonde_records_produced_total", "counter", "Records the probes produced.");
        out.sample("sonde_records_produced_total", n.produced(), "agent", agent);
        out.family("sonde_records_written_total", "counter", "Records the writer handed to its destination.");
        out.sample("sonde_records_written_total", n.written(), "agent", agent);
        out.family("sonde_records_dropped_total", "counter", "Records dropped, by reason (buffer-full, closed, no-buffer, writer-failed, resend-buffer-full).");
        for (DropReason r : DropReason.values()) {
            out.sample("sonde_records_dropped_total", n.dropped(r), "agent", agent, "reason", r.label());
        }
        out.family("sonde_records_in_flight", "gauge", "Records produced and neither written nor dropped yet (in the rings or the frame being packed).");
        out.sample("sonde_records_in_flight", n.inFlight(), "agent", agent);

        if (live != null) writeLiveValues(out, live, "agent", agent);
        return out.toString();
    }
}
