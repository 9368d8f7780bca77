package io.sonde.sim.cpu;

/**
 * Creates the scheduler of a machine. Use the factories {@link #processorSharing()},
 * {@link #roundRobin(double)}, {@link #linux24()}, or build one from a {@link SchedulerKind} or
 * {@link SchedulerSpec} (the user's choice).
 */
@FunctionalInterface
public interface SchedulerFactory {
    /** Creates the scheduler for {@code machine}. */
    CpuScheduler create(Machine machine);

    /** Exact processor sharing: n runnable threads on c CPUs each progress at rate c / max(c, n). */
    static SchedulerFactory processorSharing() {
        return ProcessorSharing::new;
    }

    /** Round robin with the given quantum (ms): FIFO run queue, no priorities. */
    static SchedulerFactory roundRobin(double quantumMs) {
        if (!(quantumMs > 0) || Double.isInfinite(quantumMs)) {
            throw new IllegalArgumentException("round-robin quantum must be finite and > 0 ms, got " + quantumMs);
        }
        return m -> new RoundRobin(m, quantumMs);
    }

    /** The Linux 2.4 priority scheduler with its defaults (10 ms ticks, 6-tick base slice at nice 0). */
    static SchedulerFactory linux24() {
        return m -> new Linux24Scheduler(m, Linux24Scheduler.Config.DEFAULT);
    }

    /** The Linux 2.4 priority scheduler with a custom configuration. */
    static SchedulerFactory linux24(Linux24Scheduler.Config config) {
        return m -> new Linux24Scheduler(m, config);
    }

    /**
     * Parses {@code ps}, {@code rr} (10 ms quantum), {@code rr:QUANTUM} (e.g. {@code rr:5ms}),
     * {@code linux24}; see {@link SchedulerSpec#parse(String)}.
     *
     * @throws IllegalArgumentException naming the text and the known spellings
     */
    static SchedulerFactory parse(String text) {
        return SchedulerSpec.parse(text).factory();
    }
}
