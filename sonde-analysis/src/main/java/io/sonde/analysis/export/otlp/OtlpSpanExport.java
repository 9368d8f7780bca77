package io.sonde.analysis.export.otlp;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.ThreadInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns every monitored execution into an OTLP span while the analysis runs, and hands them to an
 * {@link OtlpHttpSender} in batches; memory stays bounded however long the log (per thread a
 * stack-deep array, and the last {@value #REMEMBERED_PIECES} handed-off pieces' request roots).
 *
 * <p>Parents come without keeping trees: executions arrive in post-order, and within a piece an
 * execution's subtree occupies a contiguous run of order indices, so the first callee of an
 * execution has its caller's order index plus one; the callees of one caller arrive in call order,
 * the first first. So the parent of an execution at depth d is (first completed sibling's order
 * index − 1), and span ids are computed from (agent, piece trace id, order index) on both sides. A
 * piece's root gets the span of the execution that handed it off, (parent trace id, parent order
 * index), and the trace id of the request its parent belongs to. See docs/analysis.md, "OTLP export".
 *
 * <p>The same class makes the spans of a recorded log ({@code sonde analyze --otlp}) and of live
 * streams (the collector's {@code otlp} handler, which drives a {@link io.sonde.analysis.tree.CallTreeBuilder}
 * per connection from the frames it receives): one span conversion for both.
 */
public final class OtlpSpanExport implements ExecutionListener {
    /** Handed-off pieces whose request root is remembered, for pieces handed off again from them. */
    static final int REMEMBERED_PIECES = 1 << 16;
    /** Threads whose piece state is remembered. */
    static final int REMEMBERED_THREADS = 1 << 16;
    /** Instrumentation scope name on every span. */
    static final String SCOPE = "io.sonde";

    private final OtlpHttpSender sender;
    private final int batchSize;
    private final Map<AgentInfo, AgentSpans> agents = new IdentityHashMap<>();
    /** Per thread where its piece stands; the least recently used forgotten beyond {@value #REMEMBERED_THREADS} (a stream without end). */
    private final Map<ThreadInfo, ThreadState> threads = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ThreadInfo, ThreadState> eldest) {
            return size() > REMEMBERED_THREADS;
        }
    };
    private ThreadInfo lastThread;
    private ThreadState lastState;
    private int pending;
    private long spans;
    private final Map<PieceKey, Long> rootOfPiece = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PieceKey, Long> eldest) {
            return size() > REMEMBERED_PIECES;
        }
    };

    private record PieceKey(int agent, long traceId) {}

    /** One agent's resource and its spans waiting for the next batch. */
    private static final class AgentSpans {
        final long key;
        final Resource resource;
        final List<Span> spans = new ArrayList<>();

        AgentSpans(AgentInfo a) {
            key = OtlpIds.agentKey(a.id());
            resource = resource(a);
        }
    }

    /** Where the current piece on a thread stands. */
    private static final class ThreadState {
        long pieceKey;
        long rootKey;
        long anonymousRoots;
        /** Per depth: order index of the first completed callee of the open caller above it (-1: none yet). */
        int[] firstCallee = new int[16];

        ThreadState() {
            Arrays.fill(firstCallee, -1);
        }
    }

    /**
     * @param sender where the batches go
     * @param batchSize spans per request (at least 1)
     */
    public OtlpSpanExport(OtlpHttpSender sender, int batchSize) {
        if (batchSize < 1) throw new IllegalArgumentException("OTLP batch size must be at least 1: " + batchSize);
        this.sender = sender;
        this.batchSize = batchSize;
    }

    static Resource resource(AgentInfo a) {
        // the frame header names no application: OpenTelemetry's own default for an unnamed Java service
        return Resource.newBuilder()
                .addAttributes(text("service.name", "unknown_service:java"))
                .addAttributes(text("host.name", a.host()))
                .addAttributes(number("process.pid", a.pid()))
                .addAttributes(text("sonde.agent.id", a.id().toString()))
                .build();
    }

    private ThreadState state(ThreadInfo t) {
        if (t != lastThread) {
            lastThread = t;
            lastState = threads.computeIfAbsent(t, k -> new ThreadState());
        }
        return lastState;
    }

    @Override
    public void onPieceStart(ThreadInfo thread, long traceId, long startWallNanos) {
        ThreadState s = state(thread);
        Arrays.fill(s.firstCallee, -1);
        s.pieceKey = traceId != 0 ? traceId : OtlpIds.anonymousPieceKey(thread.threadId(), ++s.anonymousRoots);
        s.rootKey = s.pieceKey;
    }

    @Override
    public boolean wantsTree(ThreadInfo thread, long startWallNanos, long traceId, long parentTraceId) {
        if (parentTraceId != 0) {
            int agent = thread.agent().index();
            // the parent is a handed-off piece itself (remembered) or a request's root piece
            Long root = rootOfPiece.get(new PieceKey(agent, parentTraceId));
            long r = root != null ? root : parentTraceId;
            rootOfPiece.put(new PieceKey(agent, traceId), r);
            state(thread).rootKey = r;
        }
        return false; // follows executions; keeps no tree
    }

    @Override
    public void onExecution(Execution e) {
        ThreadInfo t = e.thread();
        ThreadState s = state(t);
        AgentSpans a = agents.computeIfAbsent(t.agent(), AgentSpans::new);
        int d = e.depth();
        int order = e.orderIndex();
        if (s.firstCallee.length < d + 2) {
            int old = s.firstCallee.length;
            s.firstCallee = Arrays.copyOf(s.firstCallee, Math.max(d + 2, old * 2));
            Arrays.fill(s.firstCallee, old, s.firstCallee.length, -1);
        }
        long spanId = OtlpIds.spanId(a.key, s.pieceKey, order);
        long parentId = 0;
        if (d > 0) {
            if (s.firstCallee[d] < 0) s.firstCallee[d] = order;
            parentId = OtlpIds.spanId(a.key, s.pieceKey, s.firstCallee[d] - 1);
        } else if (e.parentTraceId() != 0 && e.parentOrderIndex() >= 0) {
            parentId = OtlpIds.spanId(a.key, e.parentTraceId(), e.parentOrderIndex());
        }
        s.firstCallee[d + 1] = -1; // this execution's callees are complete

        Span.Builder span = Span.newBuilder()
                .setTraceId(OtlpIds.traceId(a.key, s.rootKey))
                .setSpanId(OtlpIds.spanIdBytes(spanId))
                .setName(e.operation().name())
                .setKind(Span.SpanKind.SPAN_KIND_INTERNAL)
                .setStartTimeUnixNano(e.startWallNanos())
                .setEndTimeUnixNano(e.startWallNanos() + e.wallInclusive())
                .addAttributes(number("thread.id", t.threadId()))
                .addAttributes(text("thread.name", t.name()))
                .addAttributes(text("sonde.trace", Long.toHexString(e.traceId())))
                .addAttributes(number("sonde.order", order))
                .addAttributes(number("sonde.wall_exclusive_ns", e.wallExclusive()));
        if (parentId != 0) span.setParentSpanId(OtlpIds.spanIdBytes(parentId));
        if (e.cpuInclusive() != Execution.UNKNOWN) span.addAttributes(number("sonde.cpu_ns", e.cpuInclusive()));
        if (e.cpuExclusive() != Execution.UNKNOWN) span.addAttributes(number("sonde.cpu_exclusive_ns", e.cpuExclusive()));
        if (d == 0 && e.handoffWaitNanos() != Execution.UNKNOWN) span.addAttributes(number("sonde.handoff_wait_ns", e.handoffWaitNanos()));
        if (e.exception() != null) {
            span.addAttributes(text("exception.type", e.exception()));
            span.setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage(e.exception()));
        }
        a.spans.add(span.build());
        spans++;
        if (++pending >= batchSize) flush();
    }

    /** Sends the spans not yet batched. Call once the analysis is done. */
    public void flush() {
        if (pending == 0) return;
        ExportTraceServiceRequest.Builder request = ExportTraceServiceRequest.newBuilder();
        InstrumentationScope scope = InstrumentationScope.newBuilder().setName(SCOPE).build();
        for (AgentSpans a : agents.values()) {
            if (a.spans.isEmpty()) continue;
            request.addResourceSpans(ResourceSpans.newBuilder()
                    .setResource(a.resource)
                    .addScopeSpans(ScopeSpans.newBuilder().setScope(scope).addAllSpans(a.spans)));
            a.spans.clear();
        }
        sender.submit(request.build(), pending);
        pending = 0;
    }

    /** Spans made so far. */
    public long spans() {
        return spans;
    }

    static KeyValue text(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value == null ? "" : value)).build();
    }

    static KeyValue number(String key, long value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setIntValue(value)).build();
    }
}
