package io.sonde.sim.engine;

import java.util.Arrays;

/**
 * The pending events, ordered by (time, insertion sequence): a binary min-heap kept in parallel
 * primitive arrays so that comparisons touch no event object, and each event records its heap
 * position so that moving or cancelling it costs O(log n) without searching. Equal times fire in
 * scheduling order (FIFO), which makes runs deterministic.
 */
public final class EventList {
    private double[] times = new double[256];
    private long[] seqs = new long[256];
    private Event[] events = new Event[256];
    private int size;
    private long nextSeq;

    /** Number of scheduled events. */
    public int size() {
        return size;
    }

    /** Whether no event is scheduled. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Time of the earliest event; only valid when not empty. */
    public double peekTime() {
        return times[0];
    }

    /** Schedules {@code e} at {@code time}, moving it if it is already scheduled. */
    public void schedule(Event e, double time) {
        long seq = nextSeq++;
        int i = e.heapIndex;
        e.time = time;
        if (i < 0) {
            if (size == times.length) {
                grow();
            }
            i = size++;
            siftUp(i, time, seq, e);
        } else {
            // Moved: a later time can only sink, an earlier (or equal with a larger seq) only rise
            // or sink; try both, one of them is a no-op.
            double oldTime = times[i];
            if (time < oldTime) {
                siftUp(i, time, seq, e);
            } else {
                siftDown(i, time, seq, e);
            }
        }
    }

    /** Removes {@code e} if it is scheduled. */
    public void cancel(Event e) {
        int i = e.heapIndex;
        if (i < 0) {
            return;
        }
        e.heapIndex = -1;
        int last = --size;
        if (i != last) {
            double t = times[last];
            long s = seqs[last];
            Event moved = events[last];
            events[last] = null;
            if (t < times[i] || (t == times[i] && s < seqs[i])) {
                siftUp(i, t, s, moved);
            } else {
                siftDown(i, t, s, moved);
            }
        } else {
            events[last] = null;
        }
    }

    /** Removes and returns the earliest event; only valid when not empty. */
    public Event poll() {
        Event top = events[0];
        top.heapIndex = -1;
        int last = --size;
        if (last > 0) {
            double t = times[last];
            long s = seqs[last];
            Event moved = events[last];
            events[last] = null;
            siftDown(0, t, s, moved);
        } else {
            events[0] = null;
        }
        return top;
    }

    /** Drops every event. */
    public void clear() {
        for (int i = 0; i < size; i++) {
            events[i].heapIndex = -1;
            events[i] = null;
        }
        size = 0;
    }

    private void siftUp(int i, double t, long s, Event e) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            double pt = times[parent];
            if (pt < t || (pt == t && seqs[parent] < s)) {
                break;
            }
            place(i, pt, seqs[parent], events[parent]);
            i = parent;
        }
        place(i, t, s, e);
    }

    private void siftDown(int i, double t, long s, Event e) {
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            double ct = times[child];
            if (right < size) {
                double rt = times[right];
                if (rt < ct || (rt == ct && seqs[right] < seqs[child])) {
                    child = right;
                    ct = rt;
                }
            }
            if (t < ct || (t == ct && s < seqs[child])) {
                break;
            }
            place(i, ct, seqs[child], events[child]);
            i = child;
        }
        place(i, t, s, e);
    }

    private void place(int i, double t, long s, Event e) {
        times[i] = t;
        seqs[i] = s;
        events[i] = e;
        e.heapIndex = i;
    }

    private void grow() {
        int n = times.length * 2;
        times = Arrays.copyOf(times, n);
        seqs = Arrays.copyOf(seqs, n);
        events = Arrays.copyOf(events, n);
    }
}
