package io.sonde.core.pipeline;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.prometheus.OperationStats;
import io.sonde.format.Format;
import io.sonde.format.RecordLayout;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Per-probe execution counts, inclusive durations and call depths, taken by the writer thread
 * from the records it drains anyway (off the hot path: {@code Probes.enter/exit} are unchanged).
 * Only present when asked for ({@link Pipeline#enableProbeTally()}, used by the java agent's
 * overhead budget); otherwise the writer thread does not look at probe ids.
 *
 * <p>Per ring the writer keeps a small stack of open executions (probe id, enter time), so an
 * EXIT matched with its ENTER gives a duration and the stack's height the depth. Dropped records
 * (a GAP) or an exit that does not match reset that stack: those executions count, but get no
 * duration.
 *
 * <p>Written by the writer thread only. {@link #snapshot} may run on any thread: it reads plain
 * longs the writer may be updating, which is fine for statistics (each value is monotonic and
 * at most one drain old); the arrays' growth is published through a volatile field.
 */
public final class ProbeTally {
    /** Totals per probe id since the tally began: executions (ENTERs), summed durations and depths. */
    public record Totals(long[] executions, long[] completed, long[] nanos, long[] depths) {
        /** Number of probe ids covered. */
        public int size() {
            return executions.length;
        }
    }

    /** Open executions of one ring, parallel arrays used as a stack. */
    private static final class Stack {
        int height;
        int[] ids = new int[32];
        long[] times = new long[32];
    }

    private static final class Arrays4 {
        final long[] executions;
        final long[] completed;
        final long[] nanos;
        final long[] depths;

        Arrays4(int n) {
            executions = new long[n];
            completed = new long[n];
            nanos = new long[n];
            depths = new long[n];
        }

        Arrays4 grown(int n) {
            Arrays4 a = new Arrays4(n);
            System.arraycopy(executions, 0, a.executions, 0, executions.length);
            System.arraycopy(completed, 0, a.completed, 0, completed.length);
            System.arraycopy(nanos, 0, a.nanos, 0, nanos.length);
            System.arraycopy(depths, 0, a.depths, 0, depths.length);
            return a;
        }
    }

    private volatile Arrays4 counts = new Arrays4(256);
    /** Per probe id calls, errors and latency histogram; null unless asked for ({@link #enableOperationStats}). Grown by the writer thread. */
    private volatile OperationStats[] operations;
    private final Map<ThreadBuffer, Stack> stacks = new IdentityHashMap<>();
    private ThreadBuffer lastBuffer;
    private Stack lastStack;

    ProbeTally() {}

    /** One drained record of ring {@code b} at {@code ring[i]} (writer thread). */
    void record(ThreadBuffer b, byte type, byte[] ring, int i) {
        if (type == Format.GAP) {
            stack(b).height = 0; // records were lost here: open executions can no longer be matched
            return;
        }
        if (type < Format.ENTER || type > Format.EXIT_EXCEPTION_CPU) return;
        int id = i32(ring, i + RecordLayout.Timed.ID);
        if (id < 0) return;
        long time = i64(ring, i + RecordLayout.Timed.TIME);
        Stack s = stack(b);
        Arrays4 c = counts;
        if (id >= c.executions.length) {
            c = c.grown(Math.max(id + 1, c.executions.length * 2));
            counts = c;
        }
        if (type == Format.ENTER || type == Format.ENTER_CPU) {
            c.executions[id]++;
            c.depths[id] += s.height;
            if (s.height == s.ids.length) {
                s.ids = Arrays.copyOf(s.ids, s.height * 2);
                s.times = Arrays.copyOf(s.times, s.height * 2);
            }
            s.ids[s.height] = id;
            s.times[s.height++] = time;
        } else if (s.height > 0 && s.ids[s.height - 1] == id) {
            s.height--;
            c.completed[id]++;
            c.nanos[id] += time - s.times[s.height];
            OperationStats[] ops = operations;
            if (ops != null) operation(ops, id).add(time - s.times[s.height], type == Format.EXIT_EXCEPTION || type == Format.EXIT_EXCEPTION_CPU);
        } else {
            s.height = 0; // unbalanced (a probe switched between enter and exit of another monitor): resynchronise
        }
    }

    /** The stats of probe {@code id}, made (and the array grown) on first use (writer thread). */
    private OperationStats operation(OperationStats[] ops, int id) {
        if (id >= ops.length) {
            ops = Arrays.copyOf(ops, Math.max(id + 1, ops.length * 2));
            operations = ops;
        }
        OperationStats o = ops[id];
        if (o == null) {
            o = new OperationStats(); // its fields are final: safe to publish through the plain array slot
            ops[id] = o;
        }
        return o;
    }

    /**
     * Also keeps per probe the calls, the errors (exceptional exits) and a latency histogram, for
     * an agent's Prometheus endpoint; idempotent. Costs the writer thread one synchronized add per
     * completed execution, the probes nothing.
     */
    synchronized void enableOperationStats() {
        if (operations == null) operations = new OperationStats[256];
    }

    /** Calls {@code each} with every probe id that completed an execution and a consistent copy of its stats (any thread); nothing unless enabled. */
    public void forEachOperation(java.util.function.ObjIntConsumer<OperationStats.Snapshot> each) {
        OperationStats[] ops = operations;
        if (ops == null) return;
        for (int id = 0; id < ops.length; id++) {
            OperationStats o = ops[id];
            if (o != null) each.accept(o.snapshot(), id);
        }
    }

    private Stack stack(ThreadBuffer b) {
        if (b != lastBuffer) {
            lastStack = stacks.computeIfAbsent(b, k -> new Stack());
            lastBuffer = b;
        }
        return lastStack;
    }

    /** A released ring (dead thread) needs no stack any more (writer thread). */
    void forget(ThreadBuffer b) {
        stacks.remove(b);
        if (lastBuffer == b) {
            lastBuffer = null;
            lastStack = null;
        }
    }

    /** Copies of the totals so far (any thread). */
    public Totals snapshot() {
        Arrays4 c = counts;
        return new Totals(c.executions.clone(), c.completed.clone(), c.nanos.clone(), c.depths.clone());
    }

    private static int i32(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    private static long i64(byte[] b, int at) {
        return (i32(b, at) & 0xFFFFFFFFL) | ((long) i32(b, at + 4)) << 32;
    }
}
