package io.sonde.analysis.budget;

import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.RecordHandler;
import io.sonde.format.read.EventType;
import io.sonde.format.read.RecordView;
import java.util.ArrayList;
import java.util.List;

/**
 * Passes every record on to the analysis and keeps the overhead budget's switch events
 * ({@value #EVENT}), so the report can say which methods are missing from which moment and why.
 */
public final class BudgetSwitchCollector implements RecordHandler {
    /** The event type the java agent records for each switch (its {@code BudgetController.EVENT}). */
    public static final String EVENT = "sonde.budget.switch";

    private final RecordHandler next;
    private final List<BudgetSwitch> switches = new ArrayList<>();

    public BudgetSwitchCollector(RecordHandler next) {
        this.next = next;
    }

    /** The switches found, in stream order. */
    public List<BudgetSwitch> switches() {
        return List.copyOf(switches);
    }

    @Override
    public void onEventRecord(int agent, RecordView r) {
        next.onEventRecord(agent, r);
        EventType t = r.eventType();
        if (t == null || !EVENT.equals(t.name())) return;
        switches.add(new BudgetSwitch(agent, r.wallTime(), text(r, "probe"), text(r, "reason"), (long) number(r, "executions"),
                number(r, "share"), (long) number(r, "mean_ns"), number(r, "depth"), number(r, "overhead")));
    }

    /** A field by name (a later agent may add fields); null when the event has no such field. */
    private static Object field(RecordView r, String name) {
        EventType t = r.eventType();
        for (int i = 0; i < t.fieldCount(); i++) {
            if (t.fieldName(i).equals(name)) return r.fieldValue(i);
        }
        return null;
    }

    private static String text(RecordView r, String name) {
        Object v = field(r, name);
        return v == null ? "" : v.toString();
    }

    private static double number(RecordView r, String name) {
        return field(r, name) instanceof Number n ? n.doubleValue() : -1;
    }

    // ---- everything else goes on unchanged

    @Override
    public void onAgent(AgentInfo agent) {
        next.onAgent(agent);
    }

    @Override
    public void onFrame(int agent, long wallNanos, long monoNanos) {
        next.onFrame(agent, wallNanos, monoNanos);
    }

    @Override
    public void onProbeDef(int agent, int probeId, String name, String signature) {
        next.onProbeDef(agent, probeId, name, signature);
    }

    @Override
    public void onStringDef(int agent, int stringId, String value) {
        next.onStringDef(agent, stringId, value);
    }

    @Override
    public void onThreadDef(int agent, long threadId, String name) {
        next.onThreadDef(agent, threadId, name);
    }

    @Override
    public void onTraceStart(int agent, long threadId, long traceId, long parentTraceId, int parentOrderIndex) {
        next.onTraceStart(agent, threadId, traceId, parentTraceId, parentOrderIndex);
    }

    @Override
    public void onEnter(int agent, long threadId, int probeId, long timeNanos, long cpuNanos) {
        next.onEnter(agent, threadId, probeId, timeNanos, cpuNanos);
    }

    @Override
    public void onExit(int agent, long threadId, int probeId, long timeNanos, long cpuNanos, int exceptionStringId) {
        next.onExit(agent, threadId, probeId, timeNanos, cpuNanos, exceptionStringId);
    }

    @Override
    public void onEvent(int agent, long threadId, int eventTypeId, long timeNanos) {
        next.onEvent(agent, threadId, eventTypeId, timeNanos);
    }

    @Override
    public void onGap(int agent, long threadId, long droppedRecords) {
        next.onGap(agent, threadId, droppedRecords);
    }

    @Override
    public void onTrailer(int agent, long produced, long written) {
        next.onTrailer(agent, produced, written);
    }
}
