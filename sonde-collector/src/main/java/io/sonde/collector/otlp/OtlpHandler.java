package io.sonde.collector.otlp;

import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.export.otlp.OtlpHttpSender;
import io.sonde.analysis.export.otlp.OtlpSpanExport;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.EventFields;
import io.sonde.analysis.input.RecordDelivery;
import io.sonde.analysis.tree.CallTreeBuilder;
import io.sonde.analysis.tree.OperationTable;
import io.sonde.analysis.tree.TreeCounters;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.collector.metrics.PrometheusSource;
import io.sonde.core.prometheus.PrometheusText;
import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.RecordCursor;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code otlp} handler: exports every monitored execution the agents send as an OTLP span,
 * live. Per connection it decodes the frames with a cursor of its own (definitions, trace starts,
 * CPU times and exceptions included), rebuilds the call trees with the analysis' {@link
 * CallTreeBuilder} and turns executions into spans with {@link OtlpSpanExport} — the same code as
 * {@code sonde analyze --otlp}, so a live and a recorded trace give the same spans and ids — and
 * an {@link OtlpHttpSender} sends them in batches.
 *
 * <p>Never stalls ingest: the handler is queued (its own queue overflowing drops frames for it
 * only, counted by the collector), and its sender never waits for room (a full send queue drops
 * the batch, counted); an unreachable receiver is tried again every 10 s. Memory is bounded: per
 * connection at most {@code otlp.max-open-trees} threads with a trace open and {@code
 * otlp.max-depth} open executions per trace; traces beyond either, traces open when the
 * connection ends and traces open across frames this handler missed are dropped and counted
 * ({@link #tracesDropped()}). Spans of executions that completed are sent as they complete, so an
 * abandoned trace's completed callees are exported, without their open ancestors.
 *
 * <p>Options ({@code --option KEY=VALUE}): {@code otlp.url} (required, e.g.
 * {@code http://127.0.0.1:4318/v1/traces}), {@code otlp.batch} (spans per request, 512), {@code
 * otlp.queue} (requests waiting to be sent, 64), {@code otlp.max-open-trees} (4096), {@code
 * otlp.max-depth} (1024).
 */
public final class OtlpHandler implements DataHandler, PrometheusSource {
    public static final String NAME = "otlp";

    /** Why traces were dropped before all their spans were made. */
    public enum TraceDrop {
        /** Deeper than {@code otlp.max-depth}. */
        TOO_DEEP,
        /** Open longest when more than {@code otlp.max-open-trees} were open: a trace that never completes. */
        ABANDONED,
        /** Open when the agent's connection ended. */
        DISCONNECTED,
        /** Open across frames this handler did not get (its queue was full). */
        FRAMES_MISSED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Map<StreamInfo, StreamSpans> streams = new HashMap<>(); // handler thread only
    private final AtomicLong[] tracesDropped = new AtomicLong[TraceDrop.values().length];
    private final AtomicLong spans = new AtomicLong();
    private final AtomicLong badRecords = new AtomicLong();
    private volatile OtlpHttpSender sender;
    private URI endpoint;
    private int batch;
    private int maxOpenTrees;
    private int maxDepth;

    public OtlpHandler() {
        for (int i = 0; i < tracesDropped.length; i++) tracesDropped[i] = new AtomicLong();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void open(HandlerConfig config) {
        String url = config.option("otlp.url", null);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("the otlp handler needs option otlp.url (e.g. --otlp http://127.0.0.1:4318/v1/traces)");
        }
        try {
            endpoint = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option otlp.url: not a URL: '" + url + "'");
        }
        batch = config.intOption("otlp.batch", 512);
        maxOpenTrees = config.intOption("otlp.max-open-trees", 4096);
        maxDepth = config.intOption("otlp.max-depth", 1024);
        int queue = config.intOption("otlp.queue", 64);
        // checks the URL (the message names it)
        sender = new OtlpHttpSender(OtlpHttpSender.Settings.live(endpoint, queue));
    }

    @Override
    public void streamStarted(StreamInfo stream) {
        streams.put(stream, new StreamSpans(stream));
    }

    @Override
    public void handle(Envelope e) {
        StreamSpans s = streams.get(e.stream());
        if (s != null) s.frame(e);
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) {
        StreamSpans s = streams.remove(stream);
        if (s != null) s.end();
    }

    @Override
    public void flush() {
        for (StreamSpans s : streams.values()) s.export.flush();
    }

    @Override
    public void close() {
        for (StreamSpans s : streams.values()) s.end();
        streams.clear();
        if (sender != null) sender.finish();
    }

    /** The OTLP receiver's URL (after {@link #open}). */
    public URI endpoint() {
        return endpoint;
    }

    /** Spans made so far (each then accepted, rejected or dropped: {@link #sender()}). */
    public long spans() {
        return spans.get();
    }

    /** Traces dropped, by reason. */
    public long tracesDropped(TraceDrop reason) {
        return tracesDropped[reason.ordinal()].get();
    }

    /** Traces dropped, all reasons. */
    public long tracesDropped() {
        long n = 0;
        for (AtomicLong a : tracesDropped) n += a.get();
        return n;
    }

    /** Records skipped because they could not be decoded (e.g. their definitions were in frames this handler missed). */
    public long badRecords() {
        return badRecords.get();
    }

    /** What became of the spans handed to the sender so far (null before {@link #open}). */
    public OtlpHttpSender.Outcome sender() {
        OtlpHttpSender s = sender;
        return s == null ? null : s.outcome();
    }

    @Override
    public void writeMetrics(PrometheusText out) {
        OtlpHttpSender.Outcome o = sender();
        out.family("sonde_otlp_spans_total", "counter", "Spans the otlp handler made from the executions it rebuilt.");
        out.sample("sonde_otlp_spans_total", spans());
        out.family("sonde_otlp_spans_sent_total", "counter", "Spans the OTLP receiver answered for, by outcome (accepted, rejected).");
        out.sample("sonde_otlp_spans_sent_total", o == null ? 0 : o.accepted(), "outcome", "accepted");
        out.sample("sonde_otlp_spans_sent_total", o == null ? 0 : o.rejected(), "outcome", "rejected");
        out.family("sonde_otlp_spans_dropped_total", "counter", "Spans never delivered, by reason (queue_full, gave_up, unreachable).");
        out.sample("sonde_otlp_spans_dropped_total", o == null ? 0 : o.droppedQueueFull(), "reason", "queue_full");
        out.sample("sonde_otlp_spans_dropped_total", o == null ? 0 : o.droppedGaveUp(), "reason", "gave_up");
        out.sample("sonde_otlp_spans_dropped_total", o == null ? 0 : o.droppedUnreachable(), "reason", "unreachable");
        out.family("sonde_otlp_requests_total", "counter", "OTLP/HTTP requests made, retries included.");
        out.sample("sonde_otlp_requests_total", o == null ? 0 : o.requests());
        out.family("sonde_otlp_traces_dropped_total", "counter",
                "Traces dropped open (their open executions make no span), by reason (too_deep, abandoned, disconnected, frames_missed).");
        for (TraceDrop r : TraceDrop.values()) {
            out.sample("sonde_otlp_traces_dropped_total", tracesDropped(r), "reason", r.label());
        }
        out.family("sonde_otlp_bad_records_total", "counter", "Records the otlp handler could not decode and skipped.");
        out.sample("sonde_otlp_bad_records_total", badRecords());
    }

    /** One connection's decoding, trees and spans. */
    private final class StreamSpans {
        final RecordCursor cursor = new RecordCursor().includeDefinitions(true).recover(this::problem);
        final CallTreeBuilder trees;
        final OtlpSpanExport export;
        final String source;
        final EventFields fields = () -> RecordDelivery.fieldText(cursor);
        long nextIndex = 0;
        long spansSeen, tooDeepSeen, abandonedSeen;

        StreamSpans(StreamInfo stream) {
            export = new OtlpSpanExport(sender, batch);
            trees = new CallTreeBuilder(new OperationTable(), export, name -> true, ProbeCost.NONE);
            trees.limitOpenTrees(maxDepth, maxOpenTrees);
            trees.onAgent(new AgentInfo(0, stream.agentId(), stream.host(), stream.pid()));
            source = "connection " + stream.connection() + " of agent " + stream.agentId();
        }

        void problem(FormatException e) {
            badRecords.incrementAndGet();
        }

        void frame(Envelope e) {
            if (e.index() != nextIndex) {
                // frames this handler did not get: nothing open may be joined across them
                closeOpen(TraceDrop.FRAMES_MISSED);
            }
            nextIndex = e.index() + 1;
            if (!Format.holdsRecords(e.type())) return;
            try {
                cursor.startFrame(e.array(), e.length(), 0, source);
            } catch (FormatException ex) {
                badRecords.incrementAndGet();
                return;
            }
            trees.onFrame(0, e.wallNanos(), e.monoNanos());
            try {
                while (cursor.next()) RecordDelivery.deliver(cursor, 0, trees, fields);
            } catch (FormatException ex) {
                badRecords.incrementAndGet(); // recovery mode hands problems over; this is a last resort
            }
            account();
        }

        void end() {
            closeOpen(TraceDrop.DISCONNECTED);
            export.flush();
        }

        private void closeOpen(TraceDrop reason) {
            TreeCounters c = trees.counters();
            long before = c.brokenTraces;
            trees.onHole(0);
            tracesDropped[reason.ordinal()].addAndGet(c.brokenTraces - before);
            account();
        }

        /** Moves this stream's new counts into the handler's totals (read by /metrics from other threads). */
        private void account() {
            TreeCounters c = trees.counters();
            spans.addAndGet(export.spans() - spansSeen);
            spansSeen = export.spans();
            tracesDropped[TraceDrop.TOO_DEEP.ordinal()].addAndGet(c.tooDeepTraces - tooDeepSeen);
            tooDeepSeen = c.tooDeepTraces;
            tracesDropped[TraceDrop.ABANDONED.ordinal()].addAndGet(c.abandonedTraces - abandonedSeen);
            abandonedSeen = c.abandonedTraces;
        }
    }
}
