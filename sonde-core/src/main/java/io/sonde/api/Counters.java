package io.sonde.api;

import io.sonde.core.pipeline.RecordCounts;
import io.sonde.format.DropReason;

/**
 * A snapshot of a monitor's record counters. "Records" are data records (enter, exit and event
 * records). While running, {@code produced - written - dropped()} records are in flight (in rings
 * or in the frame being filled); after close the counters balance: produced = written + dropped,
 * as in the trailer of the stream.
 */
public final class Counters {
    private final RecordCounts counts;

    Counters(RecordCounts counts) {
        this.counts = counts;
    }

    /** Data records the probes and events produced (recorded or dropped). */
    public long produced() {
        return counts.produced();
    }

    /** Data records handed to the writer in frames. */
    public long written() {
        return counts.written();
    }

    /** Records dropped for the given reason. */
    public long dropped(DropReason reason) {
        return counts.dropped(reason);
    }

    /** Sum of all drops. */
    public long dropped() {
        return counts.dropped();
    }

    /** Records neither written nor dropped yet (0 after close). */
    public long inFlight() {
        return counts.inFlight();
    }

    /** For example {@code produced=10 written=8 dropped[buffer-full=2 closed=0 no-buffer=0 writer-failed=0] inFlight=0}. */
    @Override
    public String toString() {
        return counts.toString();
    }
}
