package io.sonde.collector.operations;

import io.sonde.analysis.stats.LatencyDistribution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per agent, operation and second: the executions that ended in that second, their errors and the
 * percentiles of their wall time, over a fixed ring of the most recent {@code seconds} seconds, in
 * bounded memory. Thread-safe (one lock): the collector's handler adds, dashboard pages read
 * {@link #changesSince(long) what changed} since their last look.
 *
 * <p><b>Bounded memory.</b> At most {@code maxRows} agent/operation rows are kept; executions of
 * further operations are counted in one row {@link #OTHER} of agent {@link #ALL_AGENTS}, so totals
 * stay right while the names beyond the cap are lost. Each row holds fixed arrays of {@code seconds}
 * slots. A second is <em>open</em> for {@code openSeconds} seconds after it began to be newest:
 * while open, its executions are kept in a {@link LatencyDistribution} (the analysis' own, as the
 * archive view's percentiles per bucket, so the same nearest-rank rules apply); then it is
 * <em>sealed</em>: p50, p95 and p99 are computed once and the distribution is dropped. An execution
 * of a second already sealed (or older than the ring) arrives too late: it is not counted in its
 * second, only in {@link Changes#lateExecutions()}.
 *
 * <p>"Newest" is the latest second any execution ended in, over all agents (agents' clocks are
 * assumed to agree within {@code openSeconds}).
 */
public final class OperationWindow {
    /** The operation name of the row that counts executions of operations beyond the cap. */
    public static final String OTHER = "(other operations)";
    /** The agent of the {@link #OTHER} row: it sums every agent. */
    public static final String ALL_AGENTS = "*";

    /** One agent/operation/second as it stands. Latencies in ns; percentiles nearest-rank, 0 with no calls. */
    public record Second(String agent, String operation, long epochSecond, long calls, long errors, long p50, long p95, long p99, long max,
            boolean sealed) {}

    /**
     * What changed since a version.
     *
     * @param version pass it to the next {@link #changesSince(long)}
     * @param newestSecond newest epoch second of the window (-1 before any execution)
     * @param seconds every second changed (added to or sealed) since the version asked, within the ring
     * @param lateExecutions executions not counted because their second was sealed already (since start)
     * @param rows agent/operation rows kept now (at most the cap, plus the {@link #OTHER} row)
     * @param otherExecutions executions counted in the {@link #OTHER} row (since start)
     */
    public record Changes(long version, long newestSecond, List<Second> seconds, long lateExecutions, int rows, long otherExecutions) {}

    private record Key(String agent, String operation) {}

    private final int seconds;
    private final int maxRows;
    private final int openSeconds;
    private final Map<Key, Row> rows = new HashMap<>();
    private final List<Row> order = new ArrayList<>();
    private long version;
    private long newest = -1;
    private long late;
    private long other;

    /**
     * @param seconds length of the ring (seconds kept), at least 1
     * @param maxRows rows kept before executions go to {@link #OTHER}, at least 1
     * @param openSeconds seconds a second stays open for executions arriving late, 1 to {@code seconds}
     */
    public OperationWindow(int seconds, int maxRows, int openSeconds) {
        if (seconds < 1) throw new IllegalArgumentException("seconds: must be at least 1, got " + seconds);
        if (maxRows < 1) throw new IllegalArgumentException("maxRows: must be at least 1, got " + maxRows);
        if (openSeconds < 1 || openSeconds > seconds) {
            throw new IllegalArgumentException("openSeconds: must be between 1 and seconds (" + seconds + "), got " + openSeconds);
        }
        this.seconds = seconds;
        this.maxRows = maxRows;
        this.openSeconds = openSeconds;
    }

    /** Counts one execution of {@code operation} by {@code agent} that ended at {@code endWallNanos} (epoch ns). */
    public synchronized void add(String agent, String operation, long endWallNanos, long durationNanos, boolean error) {
        long second = Math.floorDiv(endWallNanos, 1_000_000_000L);
        if (second > newest) advanceTo(second);
        if (second <= newest - openSeconds) {
            late++;
            return;
        }
        Row row = row(agent, operation);
        int slot = (int) Math.floorMod(second, (long) seconds);
        if (row.second[slot] != second) row.reset(slot, second);
        row.calls[slot]++;
        if (error) row.errors[slot]++;
        row.open[slot].record(durationNanos);
        row.stamp[slot] = ++version;
    }

    /** Every second changed since {@code since} (0: everything in the ring) whose epoch second is at least {@code fromSecond}. */
    public synchronized Changes changesSince(long since, long fromSecond) {
        List<Second> out = new ArrayList<>();
        for (Row r : order) {
            for (int slot = 0; slot < seconds; slot++) {
                if (r.stamp[slot] > since && r.calls[slot] > 0 && r.second[slot] >= fromSecond && r.second[slot] > newest - seconds) {
                    out.add(r.snapshot(slot));
                }
            }
        }
        return new Changes(version, newest, out, late, rows.size(), other);
    }

    /** {@link #changesSince(long, long)} over the whole ring. */
    public Changes changesSince(long since) {
        return changesSince(since, Long.MIN_VALUE);
    }

    private Row row(String agent, String operation) {
        Key k = new Key(agent, operation);
        Row r = rows.get(k);
        if (r != null) return r;
        boolean full = rows.size() >= maxRows + (rows.containsKey(OTHER_KEY) ? 1 : 0);
        if (full) {
            other++;
            k = OTHER_KEY;
            r = rows.get(k);
            if (r != null) return r;
        }
        r = new Row(k, seconds);
        rows.put(k, r);
        order.add(r);
        return r;
    }

    private static final Key OTHER_KEY = new Key(ALL_AGENTS, OTHER);

    /** Seals every second that stops being open when {@code second} becomes the newest. */
    private void advanceTo(long second) {
        if (newest >= 0) {
            long from = newest - openSeconds + 1; // the oldest second still open so far
            long to = Math.min(newest, second - openSeconds);
            for (Row r : order) {
                for (long s = from; s <= to; s++) {
                    int slot = (int) Math.floorMod(s, (long) seconds);
                    if (r.second[slot] == s && r.open[slot] != null) {
                        r.seal(slot);
                        r.stamp[slot] = ++version;
                    }
                }
            }
        }
        newest = second;
    }

    /** One agent/operation: parallel arrays indexed by slot (epoch second modulo the ring). */
    private static final class Row {
        final Key key;
        final long[] second;
        final long[] calls;
        final long[] errors;
        final long[] p50;
        final long[] p95;
        final long[] p99;
        final long[] max;
        final long[] stamp;
        final LatencyDistribution[] open; // non-null while the slot's second is open

        Row(Key key, int n) {
            this.key = key;
            second = new long[n];
            java.util.Arrays.fill(second, Long.MIN_VALUE);
            calls = new long[n];
            errors = new long[n];
            p50 = new long[n];
            p95 = new long[n];
            p99 = new long[n];
            max = new long[n];
            stamp = new long[n];
            open = new LatencyDistribution[n];
        }

        void reset(int slot, long s) {
            second[slot] = s;
            calls[slot] = 0;
            errors[slot] = 0;
            p50[slot] = p95[slot] = p99[slot] = max[slot] = 0;
            open[slot] = new LatencyDistribution();
        }

        void seal(int slot) {
            LatencyDistribution d = open[slot];
            p50[slot] = d.percentile(50);
            p95[slot] = d.percentile(95);
            p99[slot] = d.percentile(99);
            max[slot] = d.max();
            open[slot] = null;
        }

        Second snapshot(int slot) {
            LatencyDistribution d = open[slot];
            if (d == null) {
                return new Second(key.agent(), key.operation(), second[slot], calls[slot], errors[slot], p50[slot], p95[slot], p99[slot], max[slot], true);
            }
            return new Second(key.agent(), key.operation(), second[slot], calls[slot], errors[slot], d.percentile(50), d.percentile(95),
                    d.percentile(99), d.max(), false);
        }
    }
}
