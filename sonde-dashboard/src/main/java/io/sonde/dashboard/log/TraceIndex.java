package io.sonde.dashboard.log;

import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Lists the requests of a log during the analysis pass: every root execution of a root piece
 * (depth 0, no parent trace), up to a bound, so that the trace search needs no second pass. The
 * executions it sees are those the analysis selected (filters and window applied before).
 */
public final class TraceIndex implements ExecutionListener {
    /** Requests listed at most; beyond, they are only counted (about 100 bytes each). */
    public static final int DEFAULT_LIMIT = 200_000;

    private final int limit;
    private final List<TraceSummary> traces = new ArrayList<>();
    private long seen;
    private boolean sorted = true;

    public TraceIndex(int limit) {
        if (limit < 0) throw new IllegalArgumentException("limit must not be negative");
        this.limit = limit;
    }

    @Override
    public void onExecution(Execution e) {
        if (e.depth() != 0 || e.parentTraceId() != 0) return;
        seen++;
        if (traces.size() >= limit) return;
        traces.add(new TraceSummary(e.thread().agent().index(), e.traceId(), e.operation(), e.thread(), e.startWallNanos(),
                e.wallInclusive(), e.cpuInclusive(), e.exception()));
        sorted = false;
    }

    /** The listed requests by start time (executions arrive when they end, so they are sorted here once). */
    public List<TraceSummary> traces() {
        if (!sorted) {
            traces.sort(Comparator.comparingLong(TraceSummary::startWallNanos));
            sorted = true;
        }
        return Collections.unmodifiableList(traces);
    }

    /** Requests seen, including those beyond the limit. */
    public long seen() {
        return seen;
    }

    /** True when requests were seen beyond the limit and are not listed. */
    public boolean truncated() {
        return seen > traces.size();
    }
}
