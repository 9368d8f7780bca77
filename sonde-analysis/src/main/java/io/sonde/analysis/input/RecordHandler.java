package io.sonde.analysis.input;

import io.sonde.format.read.RecordView;

/**
 * Receives the decoded records of one or more Sonde logs, in stream order. This is the narrow
 * interface between reading (file discovery, framing, decoding) and analysis (call trees,
 * statistics): analysis code depends only on it, so it can be driven by the file reader, by a
 * test script, or by any other source of "a stream of records per thread".
 *
 * <p>Agents are numbered 0, 1, 2... by the reader in the order it first meets them; {@link
 * #onAgent} announces each one before any record of it. Definitions arrive before the first record
 * that uses their id (the format guarantees it). All times are the producing JVM's
 * {@code System.nanoTime()} values; {@link #onFrame} gives the wall-clock anchor to convert them.
 */
public interface RecordHandler {
    /** CPU value passed when a record carries no CPU time. */
    long NO_CPU = Long.MIN_VALUE;
    /** Exception string id passed when an exit is a normal return. */
    int NO_EXCEPTION = -1;
    /** Hand-off time passed for a trace start that carries none (a TRACE_START). */
    long NO_HANDOFF = Long.MIN_VALUE;

    /** A new agent (process) appears in the input. */
    default void onAgent(AgentInfo agent) {}

    /** A frame of the agent starts: its wall-clock and monotonic time of creation. */
    default void onFrame(int agent, long wallNanos, long monoNanos) {}

    default void onProbeDef(int agent, int probeId, String name, String signature) {}

    default void onStringDef(int agent, int stringId, String value) {}

    default void onThreadDef(int agent, long threadId, String name) {}

    /**
     * A trace start: {@code parentTraceId} 0 and {@code parentOrderIndex} -1 when the trace has no
     * parent; {@code handoffTime} the monotonic time at which the parent handed the work over (a
     * HANDOFF_START), or {@link #NO_HANDOFF}.
     */
    default void onTraceStart(int agent, long threadId, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {}

    /** An event type's definition (its fields come with each event, see {@link EventFields}). */
    default void onEventDef(int agent, int eventTypeId, String name) {}

    /** A probe entry; {@code cpuNanos} is the thread CPU time or {@link #NO_CPU}. */
    default void onEnter(int agent, long threadId, int probeId, long timeNanos, long cpuNanos) {}

    /**
     * A probe exit; {@code cpuNanos} is the thread CPU time or {@link #NO_CPU}; {@code
     * exceptionStringId} is the string id of the exception class or {@link #NO_EXCEPTION}.
     */
    default void onExit(int agent, long threadId, int probeId, long timeNanos, long cpuNanos, int exceptionStringId) {}

    /**
     * A custom event record; {@code fields} renders its field values on demand and is valid only
     * during the call.
     */
    default void onEvent(int agent, long threadId, int eventTypeId, long timeNanos, EventFields fields) {}

    /**
     * The same custom event record as {@link #onEvent}, with its field values readable from
     * {@code event} until the next record (for handlers that need them, e.g. the overhead
     * budget's switch events). Called right after {@link #onEvent} by sources that can.
     */
    default void onEventRecord(int agent, RecordView event) {}

    /** The thread dropped {@code droppedRecords} data records just before this point. */
    default void onGap(int agent, long threadId, long droppedRecords) {}

    /**
     * Records of this agent may be missing at this point (damaged input was skipped, frames are
     * missing or out of order): nothing may be joined across it, so every call tree open at this
     * point is broken.
     */
    default void onHole(int agent) {}

    /** A trailer frame: the agent's own count of produced and written data records. */
    default void onTrailer(int agent, long produced, long written) {}

    /**
     * One handler that passes every record to {@code first} and then to {@code second}: analysis
     * parts that read beside each other (the call-tree builder and the budget's switch events).
     * {@code RecordHandlerTest} checks that it forwards every method of this interface.
     */
    static RecordHandler both(RecordHandler first, RecordHandler second) {
        return new RecordHandler() {
            @Override
            public void onAgent(AgentInfo agent) {
                first.onAgent(agent);
                second.onAgent(agent);
            }

            @Override
            public void onFrame(int agent, long wallNanos, long monoNanos) {
                first.onFrame(agent, wallNanos, monoNanos);
                second.onFrame(agent, wallNanos, monoNanos);
            }

            @Override
            public void onProbeDef(int agent, int probeId, String name, String signature) {
                first.onProbeDef(agent, probeId, name, signature);
                second.onProbeDef(agent, probeId, name, signature);
            }

            @Override
            public void onStringDef(int agent, int stringId, String value) {
                first.onStringDef(agent, stringId, value);
                second.onStringDef(agent, stringId, value);
            }

            @Override
            public void onThreadDef(int agent, long threadId, String name) {
                first.onThreadDef(agent, threadId, name);
                second.onThreadDef(agent, threadId, name);
            }

            @Override
            public void onTraceStart(int agent, long threadId, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {
                first.onTraceStart(agent, threadId, traceId, parentTraceId, parentOrderIndex, handoffTime);
                second.onTraceStart(agent, threadId, traceId, parentTraceId, parentOrderIndex, handoffTime);
            }

            @Override
            public void onEventDef(int agent, int eventTypeId, String name) {
                first.onEventDef(agent, eventTypeId, name);
                second.onEventDef(agent, eventTypeId, name);
            }

            @Override
            public void onEnter(int agent, long threadId, int probeId, long timeNanos, long cpuNanos) {
                first.onEnter(agent, threadId, probeId, timeNanos, cpuNanos);
                second.onEnter(agent, threadId, probeId, timeNanos, cpuNanos);
            }

            @Override
            public void onExit(int agent, long threadId, int probeId, long timeNanos, long cpuNanos, int exceptionStringId) {
                first.onExit(agent, threadId, probeId, timeNanos, cpuNanos, exceptionStringId);
                second.onExit(agent, threadId, probeId, timeNanos, cpuNanos, exceptionStringId);
            }

            @Override
            public void onEvent(int agent, long threadId, int eventTypeId, long timeNanos, EventFields fields) {
                first.onEvent(agent, threadId, eventTypeId, timeNanos, fields);
                second.onEvent(agent, threadId, eventTypeId, timeNanos, fields);
            }

            @Override
            public void onEventRecord(int agent, RecordView event) {
                first.onEventRecord(agent, event);
                second.onEventRecord(agent, event);
            }

            @Override
            public void onGap(int agent, long threadId, long droppedRecords) {
                first.onGap(agent, threadId, droppedRecords);
                second.onGap(agent, threadId, droppedRecords);
            }

            @Override
            public void onHole(int agent) {
                first.onHole(agent);
                second.onHole(agent);
            }

            @Override
            public void onTrailer(int agent, long produced, long written) {
                first.onTrailer(agent, produced, written);
                second.onTrailer(agent, produced, written);
            }
        };
    }
}
