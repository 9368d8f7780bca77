package io.sonde.api;

import io.sonde.format.Format;

/**
 * A snapshot of a pipeline's record counters. "Records" are data records (enter, exit and event
 * records). While running, {@code produced - written - dropped()} records are in flight (in rings
 * or in the frame being filled); after close the counters balance: produced = written + dropped.
 */
public final class Counters {
    private final long produced;
    private final long written;
    private final long[] drops; // index = Format.DROP_* reason

    public Counters(long produced, long written, long[] dropsByReason) {
        this.produced = produced;
        this.written = written;
        this.drops = dropsByReason.clone();
    }

    public long produced() {
        return produced;
    }

    public long written() {
        return written;
    }

    /** Records dropped for the given reason ({@link Format#DROP_BUFFER_FULL} .. {@link Format#DROP_WRITER_FAILED}). */
    public long dropped(int reason) {
        return reason > 0 && reason < drops.length ? drops[reason] : 0;
    }

    public long droppedBufferFull() {
        return dropped(Format.DROP_BUFFER_FULL);
    }

    public long droppedClosed() {
        return dropped(Format.DROP_CLOSED);
    }

    public long droppedNoBuffer() {
        return dropped(Format.DROP_NO_BUFFER);
    }

    public long droppedWriterFailed() {
        return dropped(Format.DROP_WRITER_FAILED);
    }

    /** Sum of all drops. */
    public long dropped() {
        long s = 0;
        for (long d : drops) s += d;
        return s;
    }

    /** Records neither written nor dropped yet (0 after close). */
    public long inFlight() {
        return produced - written - dropped();
    }

    @Override
    public String toString() {
        return "produced=" + produced + " written=" + written + " dropped[full=" + droppedBufferFull() + " closed="
                + droppedClosed() + " noBuffer=" + droppedNoBuffer() + " writerFailed=" + droppedWriterFailed()
                + "] inFlight=" + inFlight();
    }
}
