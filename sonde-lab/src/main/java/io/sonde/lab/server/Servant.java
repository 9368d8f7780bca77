package io.sonde.lab.server;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

/**
 * The lab's servant work: CPU time measured with the thread's own CPU clock, or a sleep.
 * Spending CPU by the thread clock (not wall time) means a servant preempted by other threads
 * still uses its whole demand, which is what the models' {@code servant_cpu_clock=cpu} assume.
 */
final class Servant {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Servant() {}

    /** Spins until this thread has used {@code nanos} of CPU time. */
    static long spendCpu(long nanos) {
        long start = THREADS.getCurrentThreadCpuTime();
        long sink = 0;
        // The CPU clock is a system call (~0.7 us): compute a little between reads so the
        // demand is mostly user time, like a real servant, yet overshoots by a few us at most.
        while (THREADS.getCurrentThreadCpuTime() - start < nanos) {
            for (int i = 0; i < 200; i++) {
                sink = sink * 6364136223846793005L + i;
            }
        }
        return sink;
    }

    /** Sleeps {@code nanos} without using the CPU (a remote call, a disk, a database). */
    static void sleep(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
