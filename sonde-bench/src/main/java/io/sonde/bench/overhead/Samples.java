package io.sonde.bench.overhead;

import java.util.ArrayList;
import java.util.List;

/** What the runs of one configuration produced, collected until the configuration is summarised. */
final class Samples {
    private long[] timings = new long[0];
    private int size;
    final List<Long> startupMicros = new ArrayList<>();
    final List<Long> heapBytes = new ArrayList<>();
    final List<Integer> threadCounts = new ArrayList<>();
    final List<String> threadNames = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final List<String> countNotes = new ArrayList<>();
    long recordsWritten;
    boolean recordsUnknown;
    int runsDone;

    void addTimings(long[] more) {
        if (size + more.length > timings.length) {
            timings = java.util.Arrays.copyOf(timings, Math.max(size + more.length, timings.length * 2));
        }
        System.arraycopy(more, 0, timings, size, more.length);
        size += more.length;
    }

    long[] timings() {
        return java.util.Arrays.copyOf(timings, size);
    }

    void release() {
        timings = new long[0];
        size = 0;
    }
}
