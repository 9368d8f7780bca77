package io.sonde.core.pipeline;

import io.sonde.format.DropReason;

/**
 * A snapshot of a pipeline's data-record counters: produced, written, dropped per
 * {@link DropReason}. While running, {@code produced - written - dropped()} records are in flight
 * (in rings or in the frame being filled); after close produced = written + dropped.
 */
public final class RecordCounts {
    private static final DropReason[] REASONS = DropReason.values();

    private final long produced;
    private final long written;
    private final long[] drops; // index = DropReason.ordinal()

    /** @param dropsByReason counts indexed by {@link DropReason#ordinal()} (copied) */
    public RecordCounts(long produced, long written, long[] dropsByReason) {
        if (dropsByReason.length != REASONS.length) {
            throw new IllegalArgumentException("one count per drop reason expected, got " + dropsByReason.length);
        }
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

    public long dropped(DropReason reason) {
        return drops[reason.ordinal()];
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

    /** The drops indexed by trailer reason code, as the TRAILER frame is written. */
    long[] dropsByCode() {
        long[] byCode = new long[DropReason.maxCode() + 1];
        for (DropReason r : REASONS) byCode[r.code()] = drops[r.ordinal()];
        return byCode;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("produced=").append(produced).append(" written=").append(written)
                .append(" dropped[");
        for (DropReason r : REASONS) {
            if (r.ordinal() > 0) s.append(' ');
            s.append(r.label()).append('=').append(drops[r.ordinal()]);
        }
        return s.append("] inFlight=").append(inFlight()).toString();
    }
}
