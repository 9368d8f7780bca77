package io.sonde.analysis.tree;

/**
 * One completed execution of an operation (an ENTER matched by its EXIT), handed to {@link
 * ExecutionListener#onExecution}. The object is reused for the next execution: a listener that
 * keeps data must copy it. Times are nanoseconds; CPU values are {@link #UNKNOWN} when the records
 * carried no CPU time. When perturbation correction is on, the inclusive and exclusive values are
 * the corrected ones and {@link #rawWallInclusive()} keeps the measured value.
 */
public final class Execution {
    /** Value of a CPU field that was not measured. */
    public static final long UNKNOWN = -1L;

    ThreadInfo thread;
    Operation operation;
    long traceId;
    long parentTraceId;
    int parentOrderIndex;
    long handoffWaitNanos;
    int orderIndex;
    int depth;
    long startWallNanos;
    long startMonoNanos;
    long rawWallInclusive;
    long wallInclusive;
    long wallExclusive;
    long cpuInclusive;
    long cpuExclusive;
    int children;
    long descendants;
    String exception;

    Execution() {}

    public ThreadInfo thread() {
        return thread;
    }

    public Operation operation() {
        return operation;
    }

    /** Trace id from the TRACE_START that opened the trace (0 if the trace had none). */
    public long traceId() {
        return traceId;
    }

    /** Parent trace id from the trace start of this execution's trace (0: none). */
    public long parentTraceId() {
        return parentTraceId;
    }

    /** Order index of the parent execution in the parent trace (-1: none). */
    public int parentOrderIndex() {
        return parentOrderIndex;
    }

    /**
     * For the root execution (depth 0) of work handed over with its time: the wait from the
     * hand-off to this execution's start, ns; else {@link #UNKNOWN}.
     */
    public long handoffWaitNanos() {
        return handoffWaitNanos;
    }

    /** 0-based index of this execution's ENTER within its trace. */
    public int orderIndex() {
        return orderIndex;
    }

    /** Stack depth at the ENTER; the root of a trace has depth 0. */
    public int depth() {
        return depth;
    }

    /** Start as wall-clock nanoseconds since the Unix epoch (converted with the frame anchors). */
    public long startWallNanos() {
        return startWallNanos;
    }

    /** Start as the producing JVM's {@code System.nanoTime()} value. */
    public long startMonoNanos() {
        return startMonoNanos;
    }

    /** Measured inclusive wall time, before any perturbation correction. */
    public long rawWallInclusive() {
        return rawWallInclusive;
    }

    public long wallInclusive() {
        return wallInclusive;
    }

    public long wallExclusive() {
        return wallExclusive;
    }

    public long cpuInclusive() {
        return cpuInclusive;
    }

    public long cpuExclusive() {
        return cpuExclusive;
    }

    /** Number of direct callees. */
    public int children() {
        return children;
    }

    /** Number of executions nested inside this one at any depth. */
    public long descendants() {
        return descendants;
    }

    /** Class name of the exception the execution ended with, or null for a normal return. */
    public String exception() {
        return exception;
    }
}
