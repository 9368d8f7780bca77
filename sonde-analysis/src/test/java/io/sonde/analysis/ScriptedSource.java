package io.sonde.analysis;

import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.input.RecordHandler;
import io.sonde.analysis.input.RecordSource;
import io.sonde.analysis.input.TimeRange;
import io.sonde.analysis.progress.ProgressListener;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * A record source driven by a script of handler calls, for tests of the analysis that do not go
 * through files. Agent 0 (host "host-a", pid 42) with wall = mono + {@link #WALL_OFFSET} is
 * announced first.
 */
public final class ScriptedSource implements RecordSource {
    public static final long WALL_OFFSET = 1_700_000_000_000_000_000L;
    public static final AgentInfo AGENT = new AgentInfo(0, UUID.fromString("00000000-0000-4000-8000-000000000001"), "host-a", 42);

    private final List<Consumer<RecordHandler>> steps = new ArrayList<>();
    private TimeRange range;

    public ScriptedSource() {
        steps.add(h -> h.onAgent(AGENT));
        steps.add(h -> h.onFrame(0, WALL_OFFSET, 0));
    }

    /** Sets the time range in monotonic ns (converted to wall with the offset). */
    public ScriptedSource range(long monoStart, long monoEnd) {
        range = new TimeRange(monoStart + WALL_OFFSET, monoEnd + WALL_OFFSET);
        return this;
    }

    /** A new frame whose header read the monotonic clock at {@code mono} and the wall clock at {@code mono + wallOffset}. */
    public ScriptedSource frame(long wallOffset, long mono) {
        steps.add(h -> h.onFrame(0, mono + wallOffset, mono));
        return this;
    }

    public ScriptedSource probe(int id, String name) {
        steps.add(h -> h.onProbeDef(0, id, name, "()V"));
        return this;
    }

    public ScriptedSource string(int id, String value) {
        steps.add(h -> h.onStringDef(0, id, value));
        return this;
    }

    public ScriptedSource thread(long tid, String name) {
        steps.add(h -> h.onThreadDef(0, tid, name));
        return this;
    }

    public ScriptedSource trace(long tid, long traceId) {
        steps.add(h -> h.onTraceStart(0, tid, traceId, 0, -1, RecordHandler.NO_HANDOFF));
        return this;
    }

    /** A trace start naming a parent execution; {@code handoffTime} {@link RecordHandler#NO_HANDOFF} for none. */
    public ScriptedSource childTrace(long tid, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {
        steps.add(h -> h.onTraceStart(0, tid, traceId, parentTraceId, parentOrderIndex, handoffTime));
        return this;
    }

    public ScriptedSource eventType(int id, String name) {
        steps.add(h -> h.onEventDef(0, id, name));
        return this;
    }

    /** An event with the given rendered field values. */
    public ScriptedSource event(long tid, int type, long time, String fields) {
        steps.add(h -> h.onEvent(0, tid, type, time, () -> fields));
        return this;
    }

    public ScriptedSource enter(long tid, int probe, long time, long cpu) {
        steps.add(h -> h.onEnter(0, tid, probe, time, cpu));
        return this;
    }

    public ScriptedSource enter(long tid, int probe, long time) {
        return enter(tid, probe, time, RecordHandler.NO_CPU);
    }

    public ScriptedSource exit(long tid, int probe, long time, long cpu) {
        steps.add(h -> h.onExit(0, tid, probe, time, cpu, RecordHandler.NO_EXCEPTION));
        return this;
    }

    public ScriptedSource exit(long tid, int probe, long time) {
        return exit(tid, probe, time, RecordHandler.NO_CPU);
    }

    public ScriptedSource exitException(long tid, int probe, long time, int stringId) {
        steps.add(h -> h.onExit(0, tid, probe, time, RecordHandler.NO_CPU, stringId));
        return this;
    }

    public ScriptedSource gap(long tid, long dropped) {
        steps.add(h -> h.onGap(0, tid, dropped));
        return this;
    }

    @Override
    public TimeRange timeRange() {
        return range;
    }

    @Override
    public long totalBytes() {
        return -1;
    }

    @Override
    public List<String> names() {
        return List.of("script");
    }

    @Override
    public List<InputProblem> read(RecordHandler handler, ProgressListener progress) {
        for (Consumer<RecordHandler> s : steps) s.accept(handler);
        return List.of();
    }
}
