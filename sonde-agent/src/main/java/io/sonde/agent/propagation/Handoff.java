package io.sonde.agent.propagation;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.probe.Probes;

/**
 * The trace position a hand-off carries from the thread that hands work over to the thread that
 * runs it: the hander's trace id, the order index of its innermost method execution, and the time
 * of the hand-off ({@code System.nanoTime()} when the work was handed over). On the receiving
 * thread, {@link #begin()} makes every trace the work starts a child trace naming that position
 * (the first one with the hand-off time, so the wait between hand-off and start is recorded), and
 * {@link #end(Object)} puts back what the thread had before.
 */
public class Handoff {

    final long parentTraceId;
    final int parentOrderIndex;
    /**
     * When the work was handed over; {@link ThreadBuffer#NO_HANDOFF_TIME} once a run has used it.
     * Plain field: the runs of one periodic task follow each other in the executor (happens-before
     * through its queue), and only the first waited for the hand-off; later runs wait for their
     * period, which is not a hand-off wait.
     */
    private long handoffNanos;

    Handoff(long parentTraceId, int parentOrderIndex, long handoffNanos) {
        this.parentTraceId = parentTraceId;
        this.parentOrderIndex = parentOrderIndex;
        this.handoffNanos = handoffNanos;
    }

    /**
     * The calling thread's buffer when it is inside a trace (there is something to hand over),
     * else null. One volatile read and one thread-local lookup, no allocation: the cost of a
     * hand-off outside any trace.
     */
    static ThreadBuffer inTrace() {
        ThreadBuffer b = Probes.active().currentBuffer();
        return b == null || b.depth() == 0 ? null : b;
    }

    /** The calling thread's position, or null outside any trace. */
    static Handoff here() {
        ThreadBuffer b = inTrace();
        return b == null ? null : new Handoff(b.traceId(), b.orderIndex(), System.nanoTime());
    }

    /**
     * Prepares the receiving thread: every trace it starts until {@link #end(Object)} is a child of
     * this position. Returns what {@code end} needs, or null when nothing was set: no monitor
     * running, a thread the filter excludes, or work that runs inside a trace already (a
     * caller-runs policy, a fork-join caller running the task itself while it waits): it simply
     * nests there.
     */
    final Object begin() {
        ThreadBuffer b = Probes.active().buffer();
        if (b == null || b.depth() != 0) {
            return null;
        }
        // Usually nothing is pending; a thread started inside a trace (its own parent for its
        // whole run) that runs a handed-over task keeps its parent for after the task.
        Object token = b.pendingParentTraceId() == 0L && b.pendingParentOrderIndex() == -1
                ? b
                : new Saved(b, b.pendingParentTraceId(), b.pendingParentOrderIndex(), b.pendingHandoffTime(), b.pendingParentForEveryTrace());
        long handoff = handoffNanos;
        handoffNanos = ThreadBuffer.NO_HANDOFF_TIME;
        b.setParent(parentTraceId, parentOrderIndex, handoff, true);
        return token;
    }

    /** The hand-off time not yet used by a run ({@link ThreadBuffer#NO_HANDOFF_TIME} once used). */
    final long handoffNanos() {
        return handoffNanos;
    }

    /** Undoes {@link #begin()} on the same thread (null: nothing to undo). */
    static void end(Object token) {
        if (token instanceof ThreadBuffer) {
            ((ThreadBuffer) token).setParent(0L, -1);
        } else if (token instanceof Saved) {
            Saved s = (Saved) token;
            s.buffer.setParent(s.traceId, s.orderIndex, s.handoffNanos, s.forEveryTrace);
        }
    }

    /** The parent a thread had before a hand-off's {@link #begin()}. */
    private record Saved(ThreadBuffer buffer, long traceId, int orderIndex, long handoffNanos, boolean forEveryTrace) {}
}
