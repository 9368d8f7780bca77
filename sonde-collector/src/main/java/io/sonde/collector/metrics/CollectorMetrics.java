package io.sonde.collector.metrics;

import io.sonde.collector.Collector;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.observe.NamingEndpoint;
import io.sonde.core.live.PrometheusStartup;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.core.prometheus.OperationFamilies;
import io.sonde.core.prometheus.OperationStats;
import io.sonde.core.prometheus.PrometheusText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToLongFunction;

/**
 * What {@code GET /metrics} of a running collector answers, in the Prometheus text format: per
 * agent and operation the calls, errors and latency histogram (from the {@code metrics} handler,
 * when it runs), and the pipeline's health from the collector's own counters — frames, bytes and
 * missing frames per agent, connections, and per handler frames handled, dropped (by reason),
 * queued and failed; the numeric attributes of the naming tree when the collector serves it
 * ({@code --observe-port}); then what handlers that are {@link PrometheusSource}s add (the {@code otlp}
 * handler's spans and drops). Names and labels: docs/prometheus.md.
 */
public final class CollectorMetrics {
    private static final String[] NO_LABELS = {};

    private final Collector collector;
    private final MetricsHandler operations;

    /**
     * @param collector the running collector
     * @param operations its {@code metrics} handler, or null when it does not run one (then only the pipeline's health is served)
     */
    public CollectorMetrics(Collector collector, MetricsHandler operations) {
        this.collector = collector;
        this.operations = operations;
    }

    /** The metrics now, as one exposition. */
    public String render() {
        PrometheusText out = new PrometheusText();
        if (operations != null) {
            writeOperations(out);
        }
        writeAgents(out);
        writeReceiver(out);
        writeHandlers(out);
        NamingEndpoint naming = collector.naming();
        if (naming != null) {
            // the naming tree (agents/<id>: pid, connections, frames; collector: observers, agents), when served
            PrometheusStartup.writeLiveValues(out, naming.tree());
        }
        for (DataHandler h : collector.handlers()) {
            if (h instanceof PrometheusSource source) {
                source.writeMetrics(out);
            }
        }
        return out.toString();
    }

    private void writeOperations(PrometheusText out) {
        List<Map.Entry<MetricsHandler.Key, OperationStats.Snapshot>> series = new ArrayList<>();
        operations.forEachOperation((k, s) -> series.add(Map.entry(k, s)));
        series.sort(Comparator.comparing((Map.Entry<MetricsHandler.Key, OperationStats.Snapshot> e) -> e.getKey().agent())
                .thenComparing(e -> e.getKey().operation()));
        List<OperationFamilies.Series> rows = new ArrayList<>();
        for (var e : series) {
            rows.add(new OperationFamilies.Series(e.getKey().agent().toString(), e.getKey().operation(), e.getValue()));
        }
        OperationFamilies.write(out, rows);
        out.family("sonde_operation_unpaired_records_total", "counter",
                "ENTER and EXIT records the metrics handler could not pair (lost exits, gaps, calls open at a disconnect).");
        out.sample("sonde_operation_unpaired_records_total", operations.unpairedRecords(), NO_LABELS);
    }

    private void writeAgents(PrometheusText out) {
        List<AgentInfo> agents = new ArrayList<>(collector.agents());
        agents.sort(Comparator.comparing(AgentInfo::agentId));
        Map<UUID, ReceiverStatus.AgentStatus> received = collector.receiverStatus().agents();
        out.family("sonde_agents_connected", "gauge", "Agents with at least one open connection.");
        out.sample("sonde_agents_connected", agents.stream().filter(a -> a.status().equals("connected")).count(), NO_LABELS);
        out.family("sonde_agent_connected", "gauge", "1 while the agent has an open connection, else 0.");
        for (AgentInfo a : agents) {
            out.sample("sonde_agent_connected", a.status().equals("connected") ? 1 : 0, "agent", a.agentId().toString(), "host", a.host(),
                    "pid", Long.toString(a.pid()));
        }
        agentCounter(out, agents, received, "sonde_agent_frames_received_total", "Whole frames received from the agent.",
                ReceiverStatus.AgentStatus::frames);
        agentCounter(out, agents, received, "sonde_agent_bytes_received_total", "Frame bytes received from the agent (stream headers not counted).",
                ReceiverStatus.AgentStatus::bytes);
        agentCounter(out, agents, received, "sonde_agent_missing_frames_total", "Frame sequence numbers of the agent that never arrived.",
                ReceiverStatus.AgentStatus::missingFrames);
        agentCounter(out, agents, received, "sonde_agent_connections_total", "Connections of the agent that sent at least one frame.",
                ReceiverStatus.AgentStatus::connections);
    }

    private static void agentCounter(PrometheusText out, List<AgentInfo> agents, Map<UUID, ReceiverStatus.AgentStatus> received, String name,
            String help, ToLongFunction<ReceiverStatus.AgentStatus> value) {
        out.family(name, "counter", help);
        for (AgentInfo a : agents) {
            ReceiverStatus.AgentStatus r = received.get(a.agentId());
            out.sample(name, r == null ? 0 : value.applyAsLong(r), "agent", a.agentId().toString());
        }
    }

    private void writeReceiver(PrometheusText out) {
        ReceiverStatus r = collector.receiverStatus();
        out.family("sonde_receiver_connections_open", "gauge", "Agent connections being served now.");
        out.sample("sonde_receiver_connections_open", r.openConnections(), NO_LABELS);
        out.family("sonde_receiver_connections_total", "counter", "Agent connections accepted since start, refused ones included.");
        out.sample("sonde_receiver_connections_total", r.totalConnections(), NO_LABELS);
        out.family("sonde_receiver_connections_failed_total", "counter", "Connections closed for bad input, an exceeded limit or an I/O error.");
        out.sample("sonde_receiver_connections_failed_total", r.failedConnections(), NO_LABELS);
        out.family("sonde_receiver_connections_refused_total", "counter", "Connections closed at once because max-connections were served.");
        out.sample("sonde_receiver_connections_refused_total", r.refusedConnections(), NO_LABELS);
    }

    private void writeHandlers(PrometheusText out) {
        List<HandlerStatus> handlers = collector.handlerStatus();
        out.family("sonde_handler_up", "gauge", "1 while the handler runs, 0 if it failed to open or was closed.");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_up", h.state().equals("running") ? 1 : 0, "handler", h.name());
        }
        out.family("sonde_handler_frames_handled_total", "counter", "Frames handed to the handler.");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_frames_handled_total", h.handled(), "handler", h.name());
        }
        out.family("sonde_handler_frames_dropped_total", "counter", "Frames the handler did not get, by reason (queue_full, handler_failed).");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_frames_dropped_total", h.dropped(), "handler", h.name(), "reason", dropReason(h));
        }
        out.family("sonde_handler_bytes_dropped_total", "counter", "Bytes of the frames the handler did not get, by reason.");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_bytes_dropped_total", h.droppedBytes(), "handler", h.name(), "reason", dropReason(h));
        }
        out.family("sonde_handler_queue_frames", "gauge", "Frames waiting in the handler's queue (0 for a lossless handler).");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_queue_frames", h.queued(), "handler", h.name());
        }
        out.family("sonde_handler_errors_total", "counter", "Calls of the handler that threw.");
        for (HandlerStatus h : handlers) {
            out.sample("sonde_handler_errors_total", h.errors(), "handler", h.name());
        }
    }

    /** A handler drops for one reason only: its queue was full, or it never opened (then it drops everything). */
    private static String dropReason(HandlerStatus h) {
        return h.state().startsWith("failed") ? "handler_failed" : "queue_full";
    }
}
