package io.sonde.analysis.budget;

import io.sonde.analysis.input.RecordHandler;
import io.sonde.format.read.EventType;
import io.sonde.format.read.RecordView;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the overhead budget's switch events ({@value #EVENT}), so the report can say which methods
 * are missing from which moment and why. It reads beside the call-tree builder
 * ({@link RecordHandler#both}).
 */
public final class BudgetSwitchCollector implements RecordHandler {
    /** The event type the java agent records for each switch (its {@code BudgetController.EVENT}). */
    public static final String EVENT = "sonde.budget.switch";

    private final List<BudgetSwitch> switches = new ArrayList<>();

    /** The switches found, in stream order. */
    public List<BudgetSwitch> switches() {
        return List.copyOf(switches);
    }

    @Override
    public void onEventRecord(int agent, RecordView r) {
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
}
