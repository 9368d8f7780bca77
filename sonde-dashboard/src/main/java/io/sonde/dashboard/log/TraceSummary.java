package io.sonde.dashboard.log;

import io.sonde.analysis.tree.Operation;
import io.sonde.analysis.tree.ThreadInfo;

/**
 * One request found in a recorded log: the root execution of a root piece (a trace without a
 * parent trace), as the trace search lists it.
 *
 * @param agent index of the agent that recorded it
 * @param traceId the trace id of its root piece
 * @param operation the root execution's operation
 * @param thread the thread the root piece ran on
 * @param startWallNanos start, wall-clock ns since the epoch
 * @param wallNanos inclusive wall time of the root execution
 * @param cpuNanos inclusive CPU time of the root execution, or -1 when not recorded
 * @param exception exception class the root ended with, or null
 */
public record TraceSummary(int agent, long traceId, Operation operation, ThreadInfo thread, long startWallNanos,
        long wallNanos, long cpuNanos, String exception) {

    /** The id the API uses for the request: {@code <agent>-<trace id in hex>}. */
    public String id() {
        return TraceKey.of(agent, traceId);
    }
}
