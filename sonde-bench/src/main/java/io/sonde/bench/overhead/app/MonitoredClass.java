package io.sonde.bench.overhead.app;

/**
 * The monitored code of the overhead benchmark: one call recurses {@code depth} times, so one
 * measured call is {@code depth} monitored method executions. The agents under test are told to
 * instrument exactly {@link #monitoredMethod(long, int)} and nothing else.
 */
public final class MonitoredClass {

    /**
     * Recurses {@code depth - 1} times, then busy-waits {@code methodTimeNanos} at the bottom.
     *
     * @param methodTimeNanos time spent at the deepest level (0: just one clock read)
     * @param depth           number of nested executions of this method, at least 1
     * @return the clock value read at the bottom (returned so the JIT cannot drop the work)
     */
    public long monitoredMethod(long methodTimeNanos, int depth) {
        if (depth > 1) {
            return monitoredMethod(methodTimeNanos, depth - 1);
        }
        // Busy-wait rather than sleep: sleeping would measure the scheduler, not the probe.
        long deadline = System.nanoTime() + methodTimeNanos;
        long now;
        do {
            now = System.nanoTime();
        } while (now < deadline);
        return now;
    }
}
