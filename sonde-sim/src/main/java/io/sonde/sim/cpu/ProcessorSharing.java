package io.sonde.sim.cpu;

import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.Arrays;

/**
 * Exact (egalitarian) processor sharing on c CPUs: with n runnable threads each progresses at
 * rate c / max(c, n). Implemented with a virtual clock V that advances at that per-thread rate:
 * a burst of length w asked for at virtual time V finishes when V reaches V + w, so the threads
 * sit in a heap ordered by finish tag and only the earliest needs an event — O(log n) per
 * change instead of updating every thread.
 */
public final class ProcessorSharing implements CpuScheduler {
    private final Machine machine;
    private final Simulation sim;
    private final int cpus;
    private CpuThread[] heap = new CpuThread[16];
    private int n;
    private double virtual;
    private double lastTime;
    private long orderSeq;
    private final Event completion = new Event() {
        @Override
        protected void fire() {
            onCompletion();
        }
    };

    ProcessorSharing(Machine machine) {
        this.machine = machine;
        this.sim = machine.sim();
        this.cpus = machine.cpus();
    }

    @Override
    public String name() {
        return "ps";
    }

    @Override
    public void threadCreated(CpuThread thread, CpuThread parent) {
        // nothing to set up
    }

    @Override
    public void threadExited(CpuThread thread) {
        // nothing to tear down: an exiting thread has no burst in the heap
    }

    @Override
    public int runnable() {
        return n;
    }

    private double rate() {
        return n <= cpus ? 1.0 : (double) cpus / n;
    }

    private void advance() {
        double t = sim.now();
        if (n > 0) {
            virtual += (t - lastTime) * rate();
        }
        lastTime = t;
    }

    @Override
    public void demand(CpuThread t, double time) {
        advance();
        t.tag = virtual + time;
        t.order = orderSeq++;
        t.state = CpuThread.RUNNING;
        push(t);
        machine.setBusy(Math.min(n, cpus));
        reschedule();
    }

    private void onCompletion() {
        advance();
        // The event is always kept at the heap top's finish time, so the top is done even if
        // rounding left V a hair short of its tag (otherwise a sub-ulp remainder would re-fire
        // forever at the same clock value). Tags equal to it up to rounding finish too.
        if (n > 0 && heap[0].tag > virtual) {
            virtual = heap[0].tag;
        }
        double eps = 1e-12 * Math.max(1.0, Math.abs(virtual));
        while (n > 0 && heap[0].tag <= virtual + eps) {
            CpuThread t = pop();
            t.state = CpuThread.CALLBACK;
            machine.setBusy(Math.min(n, cpus));
            t.completeBurst(); // may ask for more CPU, re-entering demand()
            if (t.state == CpuThread.CALLBACK) {
                t.state = CpuThread.OFF;
            }
        }
        reschedule();
    }

    private void reschedule() {
        if (n == 0) {
            sim.cancel(completion);
            virtual = 0; // restart the virtual clock at every idle period: keeps precision
            return;
        }
        double dt = (heap[0].tag - virtual) / rate();
        sim.schedule(completion, dt > 0 ? dt : 0);
    }

    // --- binary heap of threads by (tag, order) ---

    private static boolean less(CpuThread a, CpuThread b) {
        return a.tag < b.tag || (a.tag == b.tag && a.order < b.order);
    }

    private void push(CpuThread t) {
        if (n == heap.length) {
            heap = Arrays.copyOf(heap, n * 2);
        }
        int i = n++;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!less(t, heap[p])) {
                break;
            }
            heap[i] = heap[p];
            heap[i].heapIndex = i;
            i = p;
        }
        heap[i] = t;
        t.heapIndex = i;
    }

    private CpuThread pop() {
        CpuThread top = heap[0];
        top.heapIndex = -1;
        CpuThread last = heap[--n];
        heap[n] = null;
        if (n > 0) {
            int i = 0;
            int half = n >>> 1;
            while (i < half) {
                int c = 2 * i + 1;
                if (c + 1 < n && less(heap[c + 1], heap[c])) {
                    c++;
                }
                if (!less(heap[c], last)) {
                    break;
                }
                heap[i] = heap[c];
                heap[i].heapIndex = i;
                i = c;
            }
            heap[i] = last;
            last.heapIndex = i;
        }
        return top;
    }
}
