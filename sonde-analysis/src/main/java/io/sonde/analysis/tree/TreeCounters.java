package io.sonde.analysis.tree;

/** What {@link CallTreeBuilder} saw and what it had to discard; all counts since creation. */
public final class TreeCounters {
    /** Thread-block records handed to the builder (definitions excluded). */
    public long records;
    public long enters;
    public long exits;
    public long events;
    /** Executions completed (ENTER matched by EXIT) on included threads. */
    public long executions;
    /** Traces completed (stack back to empty): the per-thread pieces. */
    public long traces;
    /**
     * Joined traces across threads: pieces without a parent (each the root of one request's
     * joined tree), completed or broken. Pieces with a parent belong to their parent's.
     */
    public long joinedTraces;
    /** Pieces whose parent trace is in the log (on an included thread): joined under it. */
    public long linkedPieces;
    /**
     * Pieces whose parent trace is not in the log: not recorded, on a thread excluded by the
     * filter, or lost (dropped, damaged). Counted apart, never as roots.
     */
    public long unlinkedPieces;
    /** Pieces handed off with their hand-off time (their wait is known). */
    public long handoffs;
    /** GAP records, and the data records they say were dropped. */
    public long gaps;
    public long droppedRecords;
    /** Open executions thrown away because of a GAP, a mismatched EXIT or a restarted trace. */
    public long discardedOpenExecutions;
    /** EXIT records whose probe id did not match the open ENTER. */
    public long mismatchedExits;
    /** EXIT records with no open ENTER on their thread. */
    public long unmatchedExits;
    /** Records skipped while waiting for the next TRACE_START after a GAP or mismatch. */
    public long skippedUnsynchronised;
    /** Traces open at a hole in the input (damaged or missing records): closed as broken. */
    public long brokenTraces;
    /** Executions open at a hole in the input, closed as broken (their times are unknown, not in the statistics). */
    public long brokenExecutions;
    /** Executions still open when the input ended (their trees are incomplete and not counted). */
    public long openAtEnd;
    /**
     * Open traces thrown away at the bounds of a builder that follows a stream without end
     * ({@link CallTreeBuilder#limitOpenTrees}): deeper than the depth bound, or the longest open
     * one when more threads had a trace open than the bound allows (a trace that never completes).
     */
    public long tooDeepTraces;
    public long abandonedTraces;
    /** Records on threads excluded by the thread filter. */
    public long filteredThreadRecords;
    /** Sums of the agents' trailers (produced, written), when present. */
    public long trailerProduced;
    public long trailerWritten;
    public int trailers;
}
