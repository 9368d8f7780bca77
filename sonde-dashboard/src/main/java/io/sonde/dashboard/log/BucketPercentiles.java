package io.sonde.dashboard.log;

import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.StatisticsCollector;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import java.util.ArrayList;
import java.util.List;

/**
 * The distribution of inclusive wall time per timeline bucket of one operation, with the
 * analysis' own {@link LatencyDistribution} and the same bucketing as its {@link
 * StatisticsCollector} (origin and width given by the main pass), so the percentiles over time
 * follow the same rules as the per-operation ones.
 */
final class BucketPercentiles implements ExecutionListener {
    private final String operation;
    private final long originNanos;
    private final long bucketNanos;
    private final List<LatencyDistribution> buckets = new ArrayList<>();

    BucketPercentiles(String operation, long originNanos, long bucketNanos) {
        this.operation = operation;
        this.originNanos = originNanos;
        this.bucketNanos = bucketNanos;
    }

    @Override
    public void onExecution(Execution e) {
        if (!e.operation().name().equals(operation)) return;
        long t = e.startWallNanos();
        if (t < originNanos) return;
        long b = (t - originNanos) / bucketNanos;
        if (b >= StatisticsCollector.MAX_BUCKETS) return;
        while (buckets.size() <= b) buckets.add(null);
        LatencyDistribution d = buckets.get((int) b);
        if (d == null) {
            d = new LatencyDistribution();
            buckets.set((int) b, d);
        }
        d.record(e.wallInclusive());
    }

    /** The distribution of bucket {@code b}, or null when no execution started in it. */
    LatencyDistribution bucket(int b) {
        return b < buckets.size() ? buckets.get(b) : null;
    }
}
