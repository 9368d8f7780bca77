package io.sonde.sim.cpu;

import java.util.Locale;

/**
 * Creates the scheduler of a machine. Use the factories {@link #processorSharing()},
 * {@link #roundRobin(double)}, {@link #linux24()} or {@link #parse(String)}.
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
     * {@code linux24}.
     *
     * @throws IllegalArgumentException naming the text and the known spellings
     */
    static SchedulerFactory parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("ps")) {
            return processorSharing();
        }
        if (t.equals("linux24")) {
            return linux24();
        }
        if (t.equals("rr")) {
            return roundRobin(10);
        }
        if (t.startsWith("rr:")) {
            String q = t.substring(3).trim();
            if (q.endsWith("ms")) {
                q = q.substring(0, q.length() - 2).trim();
            }
            try {
                return roundRobin(Double.parseDouble(q));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("scheduler '" + text + "': quantum '" + t.substring(3) + "' is not a number of ms");
            }
        }
        throw new IllegalArgumentException("unknown scheduler '" + text + "' (known: ps, rr, rr:QUANTUMms, linux24)");
    }
}
