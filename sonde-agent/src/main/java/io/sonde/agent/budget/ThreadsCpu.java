package io.sonde.agent.budget;

import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of the JVM's Java threads, interval by interval: what the application's own threads
 * did, without the JIT compiler's and the garbage collector's threads (not Java threads, so not
 * listed), which the process's CPU time includes. At a program's start the JIT compiles woven code
 * on the other core and the process's CPU time is up to several times the application's: the
 * monitoring's share of it looked small while the woven program ran several times slower.
 *
 * <p>A thread that ended during an interval takes its last part of that interval with it (its CPU
 * time can no longer be read): the figure is low for a program that starts and ends threads by the
 * thousand, which makes the budget stricter, not looser.
 */
final class ThreadsCpu {
    private final com.sun.management.ThreadMXBean threads;
    private Map<Long, Long> previous = new HashMap<>();

    ThreadsCpu(com.sun.management.ThreadMXBean threads) {
        this.threads = threads;
    }

    /** CPU nanoseconds of the Java threads other than {@code except} since the last call (since ever, the first time). */
    long sinceLast(long... except) {
        long[] ids = threads.getAllThreadIds();
        long[] cpu = threads.getThreadCpuTime(ids);
        Map<Long, Long> now = new HashMap<>(ids.length * 2);
        long sum = 0;
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] < 0) continue; // ended meanwhile, or not measurable
            now.put(ids[i], cpu[i]);
            if (!excluded(ids[i], except)) sum += Math.max(0, cpu[i] - previous.getOrDefault(ids[i], 0L));
        }
        previous = now;
        return sum;
    }

    private static boolean excluded(long id, long[] except) {
        for (long e : except) {
            if (e == id) return true;
        }
        return false;
    }
}
