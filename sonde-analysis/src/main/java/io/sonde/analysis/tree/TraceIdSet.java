package io.sonde.analysis.tree;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The trace ids seen in a pass, per agent, so that a piece's parent can be looked up at the end
 * (counting pieces whose parent is not in the log). Compact because of how agents number traces:
 * {@code ordinal << 32 | n} with n = 1, 2, 3, ... per thread buffer, so the ids of one buffer form
 * a few runs; each run is one pair of longs. Arbitrary ids still work (one run each).
 */
final class TraceIdSet {
    private final Map<Long, Runs> byHigh = new HashMap<>();
    private long lastKey = Long.MIN_VALUE;
    private Runs last;

    void add(int agent, long traceId) {
        runs(key(agent, traceId), true).add(traceId & 0xFFFF_FFFFL);
    }

    boolean contains(int agent, long traceId) {
        Runs r = runs(key(agent, traceId), false);
        return r != null && r.contains(traceId & 0xFFFF_FFFFL);
    }

    private static long key(int agent, long traceId) {
        return ((long) agent << 32) | (traceId >>> 32); // agent in the high half, the id's high half below
    }

    private Runs runs(long key, boolean create) {
        if (key == lastKey && last != null) return last;
        Runs r = byHigh.get(key);
        if (r == null) {
            if (!create) return null;
            r = new Runs();
            byHigh.put(key, r);
        }
        lastKey = key;
        last = r;
        return r;
    }

    /** Sorted, disjoint, non-adjacent runs [start, end) of low halves. */
    private static final class Runs {
        long[] starts = new long[4];
        long[] ends = new long[4];
        int n;

        void add(long v) {
            // the usual case: the next id of the newest run
            if (n > 0 && ends[n - 1] == v) {
                ends[n - 1] = v + 1;
                return;
            }
            int i = find(v); // runs[0..i) start at or before v
            if (i > 0 && v < ends[i - 1]) return; // inside a run
            boolean joinsPrev = i > 0 && ends[i - 1] == v;
            boolean joinsNext = i < n && starts[i] == v + 1;
            if (joinsPrev && joinsNext) {
                ends[i - 1] = ends[i];
                remove(i);
            } else if (joinsPrev) {
                ends[i - 1] = v + 1;
            } else if (joinsNext) {
                starts[i] = v;
            } else {
                insert(i, v, v + 1);
            }
        }

        boolean contains(long v) {
            int i = find(v);
            return i > 0 && v < ends[i - 1];
        }

        /** Number of runs whose start is at most v. */
        private int find(long v) {
            int lo = 0;
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] <= v) lo = mid + 1;
                else hi = mid;
            }
            return lo;
        }

        private void insert(int i, long start, long end) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, n * 2);
                ends = Arrays.copyOf(ends, n * 2);
            }
            System.arraycopy(starts, i, starts, i + 1, n - i);
            System.arraycopy(ends, i, ends, i + 1, n - i);
            starts[i] = start;
            ends[i] = end;
            n++;
        }

        private void remove(int i) {
            System.arraycopy(starts, i + 1, starts, i, n - i - 1);
            System.arraycopy(ends, i + 1, ends, i, n - i - 1);
            n--;
        }
    }
}
