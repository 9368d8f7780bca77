package io.sonde.format.read;

import io.sonde.format.Format;

/**
 * Read access to the record a cursor is on ({@link SondeReader} over a whole log, {@link
 * RecordCursor} over one frame). Each accessor decodes only its own field, straight from the frame
 * bytes; asking for a field the record type does not have throws {@link IllegalStateException}.
 * Values are valid until the cursor moves.
 */
public interface RecordView {
    /**
     * The record type byte, one of the record constants in {@link Format}; a HANDOFF_START (format
     * 2.0) is reported as {@link Format#TRACE_START}, which it is with a hand-off time added
     * ({@link #hasHandoffTime()}), so code looking for trace starts sees every one.
     */
    byte type();

    /** The thread whose block holds the record (0 for definitions). */
    long threadId();

    /** The name of {@link #threadId()} from its THREAD_DEF, or null if the stream does not name it. */
    String threadName();

    /** Probe id of an ENTER/EXIT record (any of types 0x01..0x06) or of a PROBE_DEF. */
    int probeId();

    /** Name of the record's probe. */
    String probeName();

    /** Signature of the record's probe. */
    String probeSignature();

    /** Monotonic time (ns) of an enter, exit or event record. */
    long time();

    /** {@link #time()} as wall-clock ns since the epoch, through the current frame's clock pair. */
    long wallTime();

    /** True for the records that carry thread CPU time (ENTER_CPU, EXIT_CPU, EXIT_EXCEPTION_CPU). */
    boolean hasCpuTime();

    /** Thread CPU time (ns) of a CPU variant record. */
    long cpuTime();

    /** True for EXIT_EXCEPTION and EXIT_EXCEPTION_CPU. */
    boolean isExceptionExit();

    /** String id of the exception class of an exceptional exit. */
    int exceptionStringId();

    /** Exception class name of an exceptional exit. */
    String exceptionClass();

    /** Event type id of an EVENT (or EVENT_DEF) record. */
    int eventTypeId();

    /** Event type of an EVENT (or EVENT_DEF) record. */
    EventType eventType();

    boolean fieldBoolean(int index);

    int fieldInt(int index);

    long fieldLong(int index);

    double fieldDouble(int index);

    /** String id of a string field. */
    int fieldStringId(int index);

    /** Value of a string field, resolved through the registry. */
    String fieldString(int index);

    /** Any field value, boxed (Boolean, Integer, Long, Double or String): convenient, allocates. */
    Object fieldValue(int index);

    /** Trace id of a TRACE_START. */
    long traceId();

    /** Parent trace id of a TRACE_START (0: none). */
    long parentTraceId();

    /** Order index of the parent execution in its trace (-1: none). */
    int parentOrderIndex();

    /** True for a trace start that carries the hand-off time (a HANDOFF_START record). */
    boolean hasHandoffTime();

    /**
     * Monotonic time (ns, the producing JVM's {@code System.nanoTime()}) at which the parent handed
     * the work of this trace over, of a trace start with {@link #hasHandoffTime()}.
     */
    long handoffTime();

    /** Number of data records dropped at a GAP. */
    long gapCount();

    /** The id a definition record defines (probe, string or event type id, or the thread id of a THREAD_DEF). */
    long definedId();

    /** Value of a STRING_DEF, or the name in a PROBE_DEF, THREAD_DEF or EVENT_DEF. */
    String definedName();

    /**
     * Absolute byte offset of the current record in its source; for a record of a COMPRESSED frame
     * (format 2.4), which has no bytes of its own there, the offset of that frame.
     */
    long recordOffset();

    /** Definitions seen so far. */
    Registry registry();
}
