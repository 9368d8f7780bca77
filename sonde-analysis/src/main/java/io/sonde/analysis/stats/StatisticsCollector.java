package io.sonde.analysis.stats;

import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Per-operation statistics over the executions it is given (filtering happens before, in {@link
 * io.sonde.analysis.AnalysisFilter}). The timeline starts at {@code originNanos} (wall clock) and
 * is cut into buckets of {@code bucketNanos}.
 */
public final class StatisticsCollector implements ExecutionListener {
    /** Largest number of timeline buckets kept; later executions are counted but not bucketed. */
    public static final int MAX_BUCKETS = 100_000;

    private final long originNanos;
    private final long bucketNanos;
    private final List<OperationStats> byOperation = new ArrayList<>();
    private long firstStart = Long.MAX_VALUE;
    private long lastStart = Long.MIN_VALUE;

    public StatisticsCollector(long originNanos, long bucketNanos) {
        if (bucketNanos <= 0) throw new IllegalArgumentException("bucket width must be positive");
        this.originNanos = originNanos;
        this.bucketNanos = bucketNanos;
    }

    @Override
    public void onExecution(Execution e) {
        int i = e.operation().index();
        while (byOperation.size() <= i) byOperation.add(null);
        OperationStats s = byOperation.get(i);
        if (s == null) {
            s = new OperationStats(e.operation());
            byOperation.set(i, s);
        }
        long t = e.startWallNanos();
        if (t < firstStart) firstStart = t;
        if (t > lastStart) lastStart = t;
        long b = t < originNanos ? -1 : (t - originNanos) / bucketNanos;
        s.add(e, b >= 0 && b < MAX_BUCKETS ? (int) b : -1);
    }

    public long originNanos() {
        return originNanos;
    }

    public long bucketNanos() {
        return bucketNanos;
    }

    /** Statistics of the operation, or null if it had no execution. */
    public OperationStats of(Operation op) {
        return op.index() < byOperation.size() ? byOperation.get(op.index()) : null;
    }

    /** Every operation with at least one execution, by descending total exclusive time. */
    public List<OperationStats> all() {
        List<OperationStats> out = new ArrayList<>();
        for (OperationStats s : byOperation) if (s != null) out.add(s);
        out.sort(Comparator.comparingLong((OperationStats s) -> s.exclusive().sum()).reversed()
                .thenComparing(s -> s.operation().name()));
        return out;
    }

    /** The {@code n} operations with the largest total exclusive wall time: the hot spots. */
    public List<OperationStats> hotSpots(int n) {
        List<OperationStats> all = all();
        return all.subList(0, Math.min(n, all.size()));
    }

    /** Total exclusive wall time of all operations (the denominator of hot-spot shares). */
    public long totalExclusive() {
        long sum = 0;
        for (OperationStats s : byOperation) if (s != null) sum += s.exclusive().sum();
        return sum;
    }

    /** Number of timeline buckets used by any operation. */
    public int buckets() {
        int n = 0;
        for (OperationStats s : byOperation) if (s != null) n = Math.max(n, s.buckets());
        return n;
    }

    /** Start of the earliest execution counted, or Long.MAX_VALUE when none. */
    public long firstStart() {
        return firstStart;
    }

    public long lastStart() {
        return lastStart;
    }
}
