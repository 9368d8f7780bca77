package io.sonde.agent.budget;

import io.sonde.core.buffer.RingHost;
import io.sonde.core.buffer.ThreadBuffer;
import java.util.Arrays;

/**
 * Measures, once at start, what one monitored execution costs the thread that runs it: an enter
 * and an exit record with their two clock reads, written into a private ring by the same
 * {@link ThreadBuffer} code the probes use. Left out: the switch check and the thread-local
 * lookup of {@code Probes.enter} (about a nanosecond each), and whatever the woven advice costs
 * the JIT around the method. The writer thread's share is not estimated: the budget measures it
 * (its CPU time).
 *
 * <p>Why calibrate a pair rather than count produced records: the budget needs the cost per
 * probe, and the writer thread's tally already gives executions per probe; a pair is the unit
 * both sides count.
 */
final class PairCost {
    private static final int PAIRS = 20_000;
    private static final int ROUNDS = 9;

    private PairCost() {}

    /**
     * Nanoseconds per enter+exit pair: the median of the later rounds (the first ones warm the
     * JIT), timed in this thread's CPU time so that a busy machine taking the CPU away in the
     * middle of a round does not inflate it (wall time where the JVM offers no thread CPU time).
     */
    static double calibrate() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled();
        RingHost host = new RingHost() {
            @Override
            public void wakeWriter() {}

            @Override
            public boolean isClosed() {
                return false;
            }

            @Override
            public int nextOrdinal() {
                return 1;
            }
        };
        ThreadBuffer ring = new ThreadBuffer(1 << 17, true, host, Thread.currentThread(), -1, 1);
        ring.enter(0, System.nanoTime()); // measured pairs are nested (no TRACE_START), as most are
        long[] rounds = new long[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime();
            for (int i = 0; i < PAIRS; i++) {
                ring.enter(1, System.nanoTime());
                ring.exit(1, System.nanoTime());
                if ((i & 511) == 0) ring.releaseTo(ring.writePosition()); // play the writer: never full
            }
            rounds[r] = (cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - t0;
        }
        long[] later = Arrays.copyOfRange(rounds, 3, ROUNDS);
        Arrays.sort(later);
        return Math.max(1.0, later[later.length / 2] / (double) PAIRS);
    }
}
