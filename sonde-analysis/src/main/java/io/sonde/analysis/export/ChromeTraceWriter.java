package io.sonde.analysis.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.EventFields;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.ThreadInfo;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Streams executions into the Chrome trace-event format (JSON object form, opens in Perfetto and
 * chrome://tracing) while the analysis runs, so memory stays bounded however long the log. Each
 * execution is a complete event ({@code "ph":"X"}) with {@code ts}/{@code dur} in microseconds
 * (fractions keep the nanoseconds) relative to {@code originNanos}; process = agent, thread = Java
 * thread, with {@code "M"} metadata events naming both. The joined view across threads: a piece
 * handed off by another execution gets a flow arrow ({@code "s"} on the handing thread at the
 * hand-off time, {@code "f"} bound to the piece's root), and its root's args name the parent and
 * the hand-off wait; events recorded during an execution are instant events ({@code "ph":"i"}).
 * Arrows need the handing thread, known for the last {@value #RECENT_PIECES} pieces started
 * ({@link #arrowsWithoutParent()} counts the pieces left without one).
 */
public final class ChromeTraceWriter implements ExecutionListener, Closeable {
    private final JsonGenerator g;
    private final long originNanos;
    // By identity: one ThreadInfo per thread (record hash codes are not cheap per execution).
    private final Set<AgentInfo> agentsNamed = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<ThreadInfo> threadsNamed = Collections.newSetFromMap(new IdentityHashMap<>());
    private ThreadInfo lastThread;
    private long events;
    /** How many recently started pieces' threads are remembered for hand-off arrows. */
    static final int RECENT_PIECES = 1 << 16;
    private record Piece(int agent, long traceId) {}
    private final java.util.LinkedHashMap<Piece, ThreadInfo> recentPieces = new java.util.LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Piece, ThreadInfo> eldest) {
            return size() > RECENT_PIECES;
        }
    };
    private long arrows;
    private long arrowsWithoutParent;

    public ChromeTraceWriter(Path file, long originNanos) throws IOException {
        this(Files.newOutputStream(file), originNanos);
    }

    public ChromeTraceWriter(OutputStream out, long originNanos) throws IOException {
        this.g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
        this.originNanos = originNanos;
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
    }

    /** Names the thread (and its process) in metadata events the first time it appears. */
    private void named(ThreadInfo t, int pid) throws IOException {
        if (t != lastThread) {
            lastThread = t;
            if (agentsNamed.add(t.agent())) {
                metadata("process_name", pid, 0, t.agent().host() + " pid " + t.agent().pid() + " (" + t.agent().id() + ")");
            }
            if (threadsNamed.add(t)) metadata("thread_name", pid, t.threadId(), t.name());
        }
    }

    @Override
    public void onPieceStart(ThreadInfo thread, long traceId, long startWallNanos) {
        recentPieces.put(new Piece(thread.agent().index(), traceId), thread);
    }

    @Override
    public void onTreeEvent(ThreadInfo t, long traceId, String type, long wallNanos, EventFields fields) {
        try {
            int pid = t.agent().index() + 1;
            named(t, pid);
            g.writeStartObject();
            g.writeStringField("name", type);
            g.writeStringField("cat", "sonde.event");
            g.writeStringField("ph", "i");
            g.writeStringField("s", "t");
            g.writeNumberField("ts", (wallNanos - originNanos) / 1000.0);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", t.threadId());
            g.writeObjectFieldStart("args");
            g.writeStringField("trace", Long.toHexString(traceId));
            g.writeStringField("fields", fields.text());
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The flow arrow from the handing execution to the root of a handed-off piece. */
    private void handoffArrow(Execution e, int pid) throws IOException {
        ThreadInfo parent = recentPieces.get(new Piece(e.thread().agent().index(), e.parentTraceId()));
        if (parent == null) {
            arrowsWithoutParent++;
            return;
        }
        String id = e.thread().agent().index() + "-" + Long.toHexString(e.traceId());
        long handoff = e.startWallNanos() - (e.handoffWaitNanos() != Execution.UNKNOWN ? e.handoffWaitNanos() : 0);
        flow("s", id, pid, parent.threadId(), handoff);
        flow("f", id, pid, e.thread().threadId(), e.startWallNanos());
        arrows++;
    }

    private void flow(String phase, String id, int pid, long tid, long wallNanos) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", "hand-off");
        g.writeStringField("cat", "sonde.handoff");
        g.writeStringField("ph", phase);
        g.writeStringField("id", id);
        if (phase.equals("f")) g.writeStringField("bp", "e");
        g.writeNumberField("ts", (wallNanos - originNanos) / 1000.0);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeEndObject();
    }

    @Override
    public void onExecution(Execution e) {
        try {
            ThreadInfo t = e.thread();
            int pid = t.agent().index() + 1;
            named(t, pid);
            boolean pieceRoot = e.depth() == 0 && e.parentTraceId() != 0;
            if (pieceRoot) handoffArrow(e, pid);
            g.writeStartObject();
            g.writeStringField("name", e.operation().name());
            g.writeStringField("cat", "sonde");
            g.writeStringField("ph", "X");
            g.writeNumberField("ts", (e.startWallNanos() - originNanos) / 1000.0);
            g.writeNumberField("dur", e.wallInclusive() / 1000.0);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", t.threadId());
            g.writeObjectFieldStart("args");
            g.writeStringField("trace", Long.toHexString(e.traceId()));
            g.writeNumberField("order", e.orderIndex());
            g.writeNumberField("depth", e.depth());
            g.writeNumberField("exclusive_us", e.wallExclusive() / 1000.0);
            if (e.cpuInclusive() != Execution.UNKNOWN) g.writeNumberField("cpu_us", e.cpuInclusive() / 1000.0);
            if (e.exception() != null) g.writeStringField("exception", e.exception());
            if (pieceRoot) {
                g.writeStringField("parent_trace", Long.toHexString(e.parentTraceId()));
                g.writeNumberField("parent_order", e.parentOrderIndex());
                if (e.handoffWaitNanos() != Execution.UNKNOWN) g.writeNumberField("handoff_wait_us", e.handoffWaitNanos() / 1000.0);
            }
            g.writeEndObject();
            g.writeEndObject();
            events++;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private void metadata(String kind, int pid, long tid, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", kind);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Hand-off arrows written so far. */
    public long arrows() {
        return arrows;
    }

    /** Handed-off pieces that got no arrow: their parent's thread was not among the recent pieces (or not in the log). */
    public long arrowsWithoutParent() {
        return arrowsWithoutParent;
    }

    /** Complete events written so far. */
    public long events() {
        return events;
    }

    @Override
    public void close() throws IOException {
        g.writeEndArray();
        g.writeEndObject();
        g.close();
    }
}
