package io.sonde.analysis.input;

import io.sonde.format.Format;
import io.sonde.format.read.RecordView;

/**
 * Hands the record a reader stands on to a {@link RecordHandler}: the one mapping from the
 * format's record types to the handler's calls, shared by the log reader ({@link LogSource}) and
 * by live consumers that decode frames themselves (the collector's OTLP handler), so that a
 * recorded and a live stream are analysed alike.
 */
public final class RecordDelivery {
    private RecordDelivery() {}

    /**
     * Delivers the current record of {@code r} as a record of agent {@code agent}; {@code fields}
     * renders an EVENT's field values (see {@link #fieldText}).
     */
    public static void deliver(RecordView r, int agent, RecordHandler h, EventFields fields) {
        switch (r.type()) {
            case Format.ENTER:
            case Format.ENTER_CPU:
                h.onEnter(agent, r.threadId(), r.probeId(), r.time(), r.hasCpuTime() ? r.cpuTime() : RecordHandler.NO_CPU);
                break;
            case Format.EXIT:
            case Format.EXIT_CPU:
            case Format.EXIT_EXCEPTION:
            case Format.EXIT_EXCEPTION_CPU:
                h.onExit(agent, r.threadId(), r.probeId(), r.time(), r.hasCpuTime() ? r.cpuTime() : RecordHandler.NO_CPU,
                        r.isExceptionExit() ? r.exceptionStringId() : RecordHandler.NO_EXCEPTION);
                break;
            case Format.TRACE_START:
                h.onTraceStart(agent, r.threadId(), r.traceId(), r.parentTraceId(), r.parentOrderIndex(),
                        r.hasHandoffTime() ? r.handoffTime() : RecordHandler.NO_HANDOFF);
                break;
            case Format.EVENT:
                h.onEvent(agent, r.threadId(), r.eventTypeId(), r.time(), fields);
                h.onEventRecord(agent, r);
                break;
            case Format.GAP:
                h.onGap(agent, r.threadId(), r.gapCount());
                break;
            case Format.PROBE_DEF:
                h.onProbeDef(agent, r.probeId(), r.definedName(), r.probeSignature());
                break;
            case Format.STRING_DEF:
                h.onStringDef(agent, (int) r.definedId(), r.definedName());
                break;
            case Format.THREAD_DEF:
                h.onThreadDef(agent, r.definedId(), r.definedName());
                break;
            case Format.EVENT_DEF:
                h.onEventDef(agent, r.eventTypeId(), r.definedName());
                break;
            default:
                break;
        }
    }

    /** The field values of the EVENT record {@code r} stands on, as {@code name=value} pairs. */
    public static String fieldText(RecordView r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.eventType().fieldCount(); i++) {
            if (i > 0) b.append(' ');
            b.append(r.eventType().fieldName(i)).append('=').append(r.fieldValue(i));
        }
        return b.toString();
    }
}
