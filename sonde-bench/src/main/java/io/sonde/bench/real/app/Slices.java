package io.sonde.bench.real.app;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The workload's time in slices: the time (ns since the workload's start) at which each tenth of
 * its operations had been started, so that the bench can compare a settled part of the run (the
 * last half) with the same part of the no-agent run. Thread-safe: the HTTP workload's clients
 * pass their request numbers concurrently; a boundary's time is taken by whichever thread starts
 * the boundary's operation.
 */
final class Slices {
    /** Slices per workload. */
    static final int COUNT = 10;
    private final long ops;
    private final long start;
    private final AtomicLongArray ends = new AtomicLongArray(COUNT + 1);
    private final Runnable atHalf;

    /** {@code atHalf} runs once, on the thread that starts the first operation of the last half. */
    Slices(long ops, long startNanos, Runnable atHalf) {
        this.ops = ops;
        this.start = startNanos;
        this.atHalf = atHalf;
    }

    /** Notes that operation {@code op} (0-based) is about to start. */
    void starting(long op) {
        // op belongs to slice op * COUNT / ops; slice k-1 ends where the first operation of slice k starts
        long k = op * COUNT / ops;
        if (k >= 1 && k < COUNT && (op - 1) * COUNT / ops < k && ends.compareAndSet((int) k, 0, System.nanoTime() - start)
                && k == COUNT / 2) {
            atHalf.run();
        }
    }

    /** Closes the last slice at {@code endNanos} (the workload's end). */
    void finished(long endNanos) {
        ends.set(COUNT, endNanos - start);
    }

    /**
     * The end of slice {@code k} (1..COUNT) in ns since the start; 0 when not reached (or, with
     * fewer operations than slices, when no operation begins slice {@code k + 1}).
     */
    long end(int k) {
        return ends.get(k);
    }
}
