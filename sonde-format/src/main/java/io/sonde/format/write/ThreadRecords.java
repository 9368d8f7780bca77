package io.sonde.format.write;

import io.sonde.format.RecordLayout;
import io.sonde.format.RecordLayout.Cpu;
import io.sonde.format.RecordLayout.ExitException;
import io.sonde.format.RecordLayout.ExitExceptionCpu;
import io.sonde.format.RecordLayout.Gap;
import io.sonde.format.RecordLayout.HandoffStart;
import io.sonde.format.RecordLayout.Timed;
import io.sonde.format.RecordLayout.TraceStart;
import java.nio.ByteBuffer;

/**
 * Encoders of the fixed-size thread-block records into a little-endian {@link ByteBuffer}, for
 * tools that write logs without an agent (the analysis benchmark's log generator,
 * {@link LogFileWriter}). Each appends one record at the buffer's position and advances it; every
 * field goes to its {@link RecordLayout} offset. (The agent's hot path writes the same layout
 * straight into its per-thread rings.)
 */
public final class ThreadRecords {
    private ThreadRecords() {}

    /** ENTER, EXIT, ENTER_CPU or EXIT_CPU without its CPU time: type, probe id, time; returns the record's start. */
    private static int timed(ByteBuffer b, byte type, int length, int probeId, long time) {
        int at = b.position();
        b.put(at + RecordLayout.TYPE, type);
        b.putInt(at + Timed.ID, probeId);
        b.putLong(at + Timed.TIME, time);
        b.position(at + length);
        return at;
    }

    public static void enter(ByteBuffer b, int probeId, long time) {
        timed(b, RecordLayout.Enter.TYPE, RecordLayout.Enter.LENGTH, probeId, time);
    }

    public static void exit(ByteBuffer b, int probeId, long time) {
        timed(b, RecordLayout.Exit.TYPE, RecordLayout.Exit.LENGTH, probeId, time);
    }

    public static void exitException(ByteBuffer b, int probeId, long time, int exceptionStringId) {
        int at = timed(b, ExitException.TYPE, ExitException.LENGTH, probeId, time);
        b.putInt(at + ExitException.EXCEPTION_STRING_ID, exceptionStringId);
    }

    public static void enterCpu(ByteBuffer b, int probeId, long time, long cpuTime) {
        int at = timed(b, RecordLayout.EnterCpu.TYPE, RecordLayout.EnterCpu.LENGTH, probeId, time);
        b.putLong(at + Cpu.CPU_TIME, cpuTime);
    }

    public static void exitCpu(ByteBuffer b, int probeId, long time, long cpuTime) {
        int at = timed(b, RecordLayout.ExitCpu.TYPE, RecordLayout.ExitCpu.LENGTH, probeId, time);
        b.putLong(at + Cpu.CPU_TIME, cpuTime);
    }

    public static void exitExceptionCpu(ByteBuffer b, int probeId, long time, long cpuTime, int exceptionStringId) {
        int at = timed(b, ExitExceptionCpu.TYPE, ExitExceptionCpu.LENGTH, probeId, time);
        b.putLong(at + Cpu.CPU_TIME, cpuTime);
        b.putInt(at + ExitExceptionCpu.EXCEPTION_STRING_ID, exceptionStringId);
    }

    public static void traceStart(ByteBuffer b, long traceId, long parentTraceId, int parentOrderIndex) {
        int at = b.position();
        b.put(at + RecordLayout.TYPE, TraceStart.TYPE);
        b.putLong(at + TraceStart.TRACE_ID, traceId);
        b.putLong(at + TraceStart.PARENT_TRACE_ID, parentTraceId);
        b.putInt(at + TraceStart.PARENT_ORDER_INDEX, parentOrderIndex);
        b.position(at + TraceStart.LENGTH);
    }

    /** HANDOFF_START (format 2.0): a TRACE_START with the time the parent handed the work over. */
    public static void handoffStart(ByteBuffer b, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {
        int at = b.position();
        b.put(at + RecordLayout.TYPE, HandoffStart.TYPE);
        b.putLong(at + HandoffStart.TRACE_ID, traceId);
        b.putLong(at + HandoffStart.PARENT_TRACE_ID, parentTraceId);
        b.putInt(at + HandoffStart.PARENT_ORDER_INDEX, parentOrderIndex);
        b.putLong(at + HandoffStart.HANDOFF_TIME, handoffTime);
        b.position(at + HandoffStart.LENGTH);
    }

    /** GAP; {@code dropped} is stored as u32. */
    public static void gap(ByteBuffer b, int dropped) {
        int at = b.position();
        b.put(at + RecordLayout.TYPE, Gap.TYPE);
        b.putInt(at + Gap.DROPPED, dropped);
        b.position(at + Gap.LENGTH);
    }
}
