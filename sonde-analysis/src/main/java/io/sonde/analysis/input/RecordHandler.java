package io.sonde.analysis.input;

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
}
