package io.sonde.collector.envelope;

import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.RecordCursor;
import java.util.Arrays;

/**
 * The records of one frame, decoded once and shared read-only by every handler that asks: per
 * record its type, thread, probe or event type id and name, and time. Data records (ENTER … EVENT)
 * and GAP records are kept; definitions and TRACE_START are consumed by the decoding. If the frame
 * turned out corrupt inside (its CRC matched but a record did not decode), the records before the
 * problem are kept and {@link #problem()} says what and where.
 */
public final class DecodedFrame {
    private static final DecodedFrame EMPTY = new DecodedFrame(0, new byte[0], new long[0], new int[0], new String[0], new long[0], 0, null);

    private final int count;
    private final byte[] types;
    private final long[] threads;
    private final int[] ids;
    private final String[] names;
    private final long[] times;
    private final long wallMinusMono;
    private final String problem;

    private DecodedFrame(int count, byte[] types, long[] threads, int[] ids, String[] names, long[] times, long wallMinusMono,
            String problem) {
        this.count = count;
        this.types = types;
        this.threads = threads;
        this.ids = ids;
        this.names = names;
        this.times = times;
        this.wallMinusMono = wallMinusMono;
        this.problem = problem;
    }

    static DecodedFrame failed(Envelope e, String problem) {
        return new DecodedFrame(0, EMPTY.types, EMPTY.threads, EMPTY.ids, EMPTY.names, EMPTY.times, 0, problem);
    }

    /** Reads the records of the frame the cursor was started on. */
    static DecodedFrame read(RecordCursor c, Envelope e) {
        int cap = Math.max(16, e.length() / 16);
        byte[] types = new byte[cap];
        long[] threads = new long[cap];
        int[] ids = new int[cap];
        String[] names = new String[cap];
        long[] times = new long[cap];
        int n = 0;
        String problem = null;
        try {
            while (c.next()) {
                byte t = c.type();
                if (t == Format.TRACE_START) {
                    continue;
                }
                if (n == types.length) {
                    int grown = n * 2;
                    types = Arrays.copyOf(types, grown);
                    threads = Arrays.copyOf(threads, grown);
                    ids = Arrays.copyOf(ids, grown);
                    names = Arrays.copyOf(names, grown);
                    times = Arrays.copyOf(times, grown);
                }
                types[n] = t;
                threads[n] = c.threadId();
                if (t == Format.GAP) {
                    times[n] = c.gapCount(); // a GAP has no time: the count of records dropped here
                } else if (t == Format.EVENT) {
                    ids[n] = c.eventTypeId();
                    names[n] = c.eventType().name();
                    times[n] = c.time();
                } else {
                    ids[n] = c.probeId();
                    names[n] = c.probeName();
                    times[n] = c.time();
                }
                n++;
            }
        } catch (FormatException ex) {
            problem = ex.getMessage();
        }
        return new DecodedFrame(n, types, threads, ids, names, times, e.wallNanos() - e.monoNanos(), problem);
    }

    /** Records kept (data records and GAPs). */
    public int count() {
        return count;
    }

    /** Data records (ENTER … EVENT), GAPs not counted. */
    public int dataRecords() {
        int d = 0;
        for (int i = 0; i < count; i++) {
            if (types[i] != Format.GAP) {
                d++;
            }
        }
        return d;
    }

    /** Record type ({@link Format#ENTER} …). */
    public byte type(int i) {
        check(i);
        return types[i];
    }

    public long thread(int i) {
        check(i);
        return threads[i];
    }

    /** Probe id (enter/exit records) or event type id (EVENT); 0 for a GAP. */
    public int id(int i) {
        check(i);
        return ids[i];
    }

    /** Probe name or event type name; null for a GAP. */
    public String name(int i) {
        check(i);
        return names[i];
    }

    /** The record's time (the agent's monotonic clock, ns); for a GAP the number of records dropped there. */
    public long time(int i) {
        check(i);
        return times[i];
    }

    /** The record's time as wall-clock ns since the epoch (through the frame's clock pair). */
    public long wallTime(int i) {
        return time(i) + wallMinusMono;
    }

    /** True for the two exceptional exits. */
    public boolean isExceptionExit(int i) {
        byte t = type(i);
        return t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU;
    }

    /** True for ENTER and ENTER_CPU. */
    public boolean isEnter(int i) {
        byte t = type(i);
        return t == Format.ENTER || t == Format.ENTER_CPU;
    }

    /** True for the four exits. */
    public boolean isExit(int i) {
        byte t = type(i);
        return t == Format.EXIT || t == Format.EXIT_CPU || t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU;
    }

    /** What was wrong inside the frame (records after it are missing), or null. */
    public String problem() {
        return problem;
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("record " + i + " of " + count);
        }
    }
}
