package io.sonde.sim.cpu;

import java.util.Locale;
import java.util.Objects;

/**
 * A scheduler as a user chose it: the kind plus its timer settings. Immutable; {@link #factory()}
 * builds the machine's scheduler from it.
 *
 * @param kind the scheduler
 * @param tickMs the timer tick in ms (round robin: the quantum; Linux 2.4: the tick)
 * @param baseTicks the Linux 2.4 base time slice at nice 0, in ticks (ignored by the others)
 */
public record SchedulerSpec(SchedulerKind kind, double tickMs, int baseTicks) {

    /** Checks the settings. */
    public SchedulerSpec {
        Objects.requireNonNull(kind, "kind");
        if (!(tickMs > 0) || Double.isInfinite(tickMs)) {
            throw new IllegalArgumentException("scheduler " + kind + ": tick/quantum must be finite and > 0 ms, got " + tickMs);
        }
        if (baseTicks < 1) {
            throw new IllegalArgumentException("scheduler " + kind + ": base time slice must be >= 1 tick, got " + baseTicks);
        }
    }

    /** {@code kind} with the default timer (10 ms ticks, 6-tick base slice: Linux 2.4 on x86). */
    public static SchedulerSpec of(SchedulerKind kind) {
        Linux24Scheduler.Config d = Linux24Scheduler.Config.DEFAULT;
        return new SchedulerSpec(kind, d.tickMs(), d.baseTicks());
    }

    /**
     * Parses {@code ps}, {@code rr} (10 ms quantum), {@code rr:QUANTUM} (e.g. {@code rr:5ms}),
     * {@code linux24}.
     *
     * @throws IllegalArgumentException naming the text and the known spellings
     */
    public static SchedulerSpec parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("rr:")) {
            String q = t.substring(3).trim();
            if (q.endsWith("ms")) {
                q = q.substring(0, q.length() - 2).trim();
            }
            double quantum;
            try {
                quantum = Double.parseDouble(q);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("scheduler '" + text + "': quantum '" + t.substring(3) + "' is not a number of ms");
            }
            if (!(quantum > 0) || Double.isInfinite(quantum)) {
                throw new IllegalArgumentException("round-robin quantum must be finite and > 0 ms, got " + quantum);
            }
            return new SchedulerSpec(SchedulerKind.ROUND_ROBIN, quantum, Linux24Scheduler.Config.DEFAULT.baseTicks());
        }
        try {
            return of(SchedulerKind.parse(t));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown scheduler '" + text + "' (known: ps, rr, rr:QUANTUMms, linux24)");
        }
    }

    /** The factory that creates this scheduler for a machine. */
    public SchedulerFactory factory() {
        return kind.factory(tickMs, baseTicks);
    }
}
