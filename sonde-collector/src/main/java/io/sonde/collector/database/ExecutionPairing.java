package io.sonde.collector.database;

import io.sonde.collector.envelope.DecodedFrame;
import io.sonde.format.Format;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs ENTER and EXIT records of the threads of one stream into executions (a probe's call: its
 * start and its wall time), following each thread's call stack across frames. An exit whose probe
 * is not on top closes the innermost open call of that probe and abandons those above it (their
 * exits were lost); an exit of a probe not on the stack, and a GAP (records dropped there), are
 * counted as unpaired and, for a GAP, clear that thread's stack. Stacks are bounded by
 * {@link #MAX_DEPTH}: deeper calls are not timed. Used by the {@code database} and {@code metrics}
 * handlers; one instance per stream, called from one thread.
 */
public final class ExecutionPairing {
    /** Calls deeper than this on one thread are not timed (bounded memory against a stream that never exits). */
    static final int MAX_DEPTH = 4096;

    /** Receives each paired execution. */
    public interface Sink {
        void execution(String operation, long startWallNanos, long durationNanos, boolean error);
    }

    private final Map<Long, Stack> threads = new HashMap<>();
    private long unpaired;
    private long nextIndex;

    /** Pairs the records of one frame of the stream. */
    public void frame(DecodedFrame f, Sink sink) {
        Stack s = null;
        long current = Long.MIN_VALUE;
        for (int i = 0, n = f.count(); i < n; i++) {
            long thread = f.thread(i);
            if (s == null || thread != current) {
                current = thread;
                s = threads.computeIfAbsent(thread, t -> new Stack());
            }
            byte type = f.type(i);
            if (f.isEnter(i)) {
                s.push(f.id(i), f.name(i), f.time(i), f.wallTime(i));
            } else if (f.isExit(i)) {
                int at = s.find(f.id(i));
                if (at < 0) {
                    unpaired++;
                    continue;
                }
                unpaired += s.depth - 1 - at;
                sink.execution(s.names[at], s.wall[at], f.time(i) - s.start[at], f.isExceptionExit(i));
                s.depth = at;
            } else if (type == Format.GAP) {
                unpaired += s.depth;
                s.depth = 0;
            }
        }
    }

    /**
     * Notes that the stream's frame number {@code index} (its envelope index) is next; if frames
     * were skipped before it (a queued handler's queue was full), forgets the open calls, since
     * calls open across the skipped frames cannot be timed.
     */
    public void follow(long index) {
        if (index != nextIndex) {
            reset();
        }
        nextIndex = index + 1;
    }

    /** Forgets every open call (frames of this stream were not seen: their records cannot be paired). */
    public void reset() {
        threads.values().forEach(s -> {
            unpaired += s.depth;
            s.depth = 0;
        });
    }

    /** Enters and exits that could not be paired so far. */
    public long unpaired() {
        return unpaired;
    }

    private static final class Stack {
        int depth;
        int[] probes = new int[16];
        String[] names = new String[16];
        long[] start = new long[16];
        long[] wall = new long[16];

        void push(int probe, String name, long time, long wallTime) {
            if (depth == MAX_DEPTH) {
                return;
            }
            if (depth == probes.length) {
                int n = depth * 2;
                probes = Arrays.copyOf(probes, n);
                names = Arrays.copyOf(names, n);
                start = Arrays.copyOf(start, n);
                wall = Arrays.copyOf(wall, n);
            }
            probes[depth] = probe;
            names[depth] = name;
            start[depth] = time;
            wall[depth] = wallTime;
            depth++;
        }

        int find(int probe) {
            for (int i = depth - 1; i >= 0; i--) {
                if (probes[i] == probe) {
                    return i;
                }
            }
            return -1;
        }
    }
}
