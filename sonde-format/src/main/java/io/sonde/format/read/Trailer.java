package io.sonde.format.read;

import io.sonde.format.DropReason;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counters of a TRAILER frame, written by an agent on clean close: data records produced,
 * written, and dropped per reason. A complete stream satisfies produced = written + total drops.
 */
public final class Trailer {
    private final long produced;
    private final long written;
    private final Map<Integer, Long> drops;

    Trailer(long produced, long written, Map<Integer, Long> drops) {
        this.produced = produced;
        this.written = written;
        this.drops = Collections.unmodifiableMap(new LinkedHashMap<>(drops));
    }

    public long produced() {
        return produced;
    }

    public long written() {
        return written;
    }

    /** Drop counts keyed by reason code ({@link DropReason#code()}), in stream order. */
    public Map<Integer, Long> drops() {
        return drops;
    }

    /** The count for one reason, 0 if absent. */
    public long dropped(DropReason reason) {
        return dropped(reason.code());
    }

    /** The count for one reason code, 0 if absent. */
    public long dropped(int reason) {
        return drops.getOrDefault(reason, 0L);
    }

    public long droppedTotal() {
        long sum = 0;
        for (long c : drops.values()) {
            sum += c;
        }
        return sum;
    }

    /** True if produced = written + all drops. */
    public boolean balanced() {
        return produced == written + droppedTotal();
    }

    /** Name of a drop reason code ({@link DropReason#labelOf(int)}). */
    public static String reasonName(int reason) {
        return DropReason.labelOf(reason);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("produced ").append(produced).append(", written ").append(written);
        drops.forEach((r, c) -> s.append(", dropped ").append(reasonName(r)).append(' ').append(c));
        return s.toString();
    }
}
