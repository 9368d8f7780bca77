package io.sonde.format.read;

import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.RecordLayout.TrailerPayload;
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

    /**
     * Decodes the payload of a TRAILER frame.
     *
     * @param frame the header of a TRAILER frame (its bytes are the frame's)
     * @param source what to call the input in error messages
     * @throws FormatException if the payload is shorter than its fixed part or than its drop entries
     */
    public static Trailer decode(FrameHeader frame, String source) throws FormatException {
        byte[] b = frame.bytes();
        int p = frame.headerLength();
        int payload = frame.length() - p;
        if (payload < TrailerPayload.DROP_ENTRIES) {
            throw new FormatException(source, frame.offset() + p, FormatProblem.UNEXPECTED_FRAME,
                    "TRAILER payload has " + payload + " bytes, needs at least " + TrailerPayload.DROP_ENTRIES);
        }
        long produced = LittleEndian.i64(b, p + TrailerPayload.PRODUCED);
        long written = LittleEndian.i64(b, p + TrailerPayload.WRITTEN);
        long n = LittleEndian.u32(b, p + TrailerPayload.DROP_ENTRY_COUNT);
        int room = (payload - TrailerPayload.DROP_ENTRIES) / TrailerPayload.DROP_ENTRY_LENGTH;
        if (n > room) {
            throw new FormatException(source, frame.offset() + p + TrailerPayload.DROP_ENTRY_COUNT, FormatProblem.UNEXPECTED_FRAME,
                    "TRAILER declares " + n + " drop entries, payload holds " + room);
        }
        Map<Integer, Long> drops = new LinkedHashMap<>();
        int q = p + TrailerPayload.DROP_ENTRIES;
        for (int i = 0; i < n; i++, q += TrailerPayload.DROP_ENTRY_LENGTH) {
            drops.merge(LittleEndian.u8(b, q + TrailerPayload.DROP_REASON), LittleEndian.i64(b, q + TrailerPayload.DROP_COUNT), Long::sum);
        }
        return new Trailer(produced, written, drops);
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
