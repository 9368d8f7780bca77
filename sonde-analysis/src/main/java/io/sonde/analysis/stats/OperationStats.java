package io.sonde.analysis.stats;

import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.Operation;
import java.util.Arrays;

/**
 * Aggregates of one operation: distributions of inclusive and exclusive wall time, CPU sums, and a
 * time series of calls and response time per bucket of the timeline.
 */
public final class OperationStats {
    private final Operation operation;
    private final LatencyDistribution inclusive = new LatencyDistribution();
    private final LatencyDistribution exclusive = new LatencyDistribution();
    /** Hand-off waits of the executions that started a handed-off piece; made at the first one. */
    private LatencyDistribution handoffWait;
    private long cpuCount;
    private long cpuInclusiveSum;
    private long cpuExclusiveSum;
    private long cpuExclusiveCount;
    private long exceptions;
    private int[] bucketCalls = new int[8];
    private long[] bucketWallSum = new long[8];
    private int buckets;

    public OperationStats(Operation operation) {
        this.operation = operation;
    }

    /** Adds an execution that started in timeline bucket {@code bucket} (-1: not on the timeline). */
    public void add(Execution e, int bucket) {
        inclusive.record(e.wallInclusive());
        exclusive.record(e.wallExclusive());
        if (e.cpuInclusive() != Execution.UNKNOWN) {
            cpuCount++;
            cpuInclusiveSum += e.cpuInclusive();
        }
        if (e.cpuExclusive() != Execution.UNKNOWN) {
            cpuExclusiveCount++;
            cpuExclusiveSum += e.cpuExclusive();
        }
        if (e.exception() != null) exceptions++;
        if (e.handoffWaitNanos() != Execution.UNKNOWN) {
            if (handoffWait == null) handoffWait = new LatencyDistribution();
            handoffWait.record(e.handoffWaitNanos());
        }
        if (bucket >= 0) {
            if (bucket >= bucketCalls.length) {
                int n = Math.max(bucket + 1, bucketCalls.length * 2);
                bucketCalls = Arrays.copyOf(bucketCalls, n);
                bucketWallSum = Arrays.copyOf(bucketWallSum, n);
            }
            bucketCalls[bucket]++;
            bucketWallSum[bucket] += e.wallInclusive();
            if (bucket >= buckets) buckets = bucket + 1;
        }
    }

    public Operation operation() {
        return operation;
    }

    public long count() {
        return inclusive.count();
    }

    public LatencyDistribution inclusive() {
        return inclusive;
    }

    /** Number of executions of this operation that started work handed off with its time. */
    public long handoffs() {
        return handoffWait == null ? 0 : handoffWait.count();
    }

    /**
     * Waits between hand-off and start of the executions that started handed-off work (queueing,
     * thread creation, scheduling), or null when there were none.
     */
    public LatencyDistribution handoffWait() {
        return handoffWait;
    }

    public LatencyDistribution exclusive() {
        return exclusive;
    }

    /** Executions that carried CPU time. */
    public long cpuCount() {
        return cpuCount;
    }

    public long cpuInclusiveSum() {
        return cpuInclusiveSum;
    }

    public long cpuExclusiveSum() {
        return cpuExclusiveSum;
    }

    /** Mean inclusive CPU time over the executions that carried it, or -1 if none did. */
    public double cpuInclusiveMean() {
        return cpuCount == 0 ? -1 : (double) cpuInclusiveSum / cpuCount;
    }

    /** Mean exclusive CPU time over the executions where it is known, or -1. */
    public double cpuExclusiveMean() {
        return cpuExclusiveCount == 0 ? -1 : (double) cpuExclusiveSum / cpuExclusiveCount;
    }

    public long exceptions() {
        return exceptions;
    }

    /** Number of timeline buckets up to the last one this operation has calls in. */
    public int buckets() {
        return buckets;
    }

    public long callsInBucket(int bucket) {
        return bucket < buckets ? bucketCalls[bucket] : 0;
    }

    /** Mean inclusive wall time of the calls that started in the bucket, or -1 if none did. */
    public double meanWallInBucket(int bucket) {
        long c = callsInBucket(bucket);
        return c == 0 ? -1 : (double) bucketWallSum[bucket] / c;
    }
}
