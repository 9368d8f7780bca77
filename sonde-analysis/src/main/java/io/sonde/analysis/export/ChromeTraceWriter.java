package io.sonde.analysis.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sonde.analysis.input.AgentInfo;
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
 * thread, with {@code "M"} metadata events naming both.
 */
public final class ChromeTraceWriter implements ExecutionListener, Closeable {
    private final JsonGenerator g;
    private final long originNanos;
    // By identity: one ThreadInfo per thread (record hash codes are not cheap per execution).
    private final Set<AgentInfo> agentsNamed = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<ThreadInfo> threadsNamed = Collections.newSetFromMap(new IdentityHashMap<>());
    private ThreadInfo lastThread;
    private long events;

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

    @Override
    public void onExecution(Execution e) {
        try {
            ThreadInfo t = e.thread();
            int pid = t.agent().index() + 1;
            if (t != lastThread) {
                lastThread = t;
                if (agentsNamed.add(t.agent())) {
                    metadata("process_name", pid, 0, t.agent().host() + " pid " + t.agent().pid() + " (" + t.agent().id() + ")");
                }
                if (threadsNamed.add(t)) metadata("thread_name", pid, t.threadId(), t.name());
            }
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
