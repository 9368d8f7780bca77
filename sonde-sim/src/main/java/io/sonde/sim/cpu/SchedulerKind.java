package io.sonde.sim.cpu;

import java.util.Locale;

/**
 * The CPU schedulers a machine can have. Each kind builds its {@link SchedulerFactory} from the
 * platform's timer tick (the round-robin quantum, the Linux 2.4 tick) and the Linux 2.4 base time
 * slice; {@link SchedulerSpec} adds the settings a user can spell out ({@code rr:5ms}).
 */
public enum SchedulerKind {
    /** Exact processor sharing: n runnable threads on c CPUs each progress at rate c / max(c, n). */
    PROCESSOR_SHARING("ps") {
        @Override
        public SchedulerFactory factory(double tickMs, int baseTicks) {
            return SchedulerFactory.processorSharing();
        }
    },
    /** Round robin with a quantum of one tick: FIFO run queue, no priorities. */
    ROUND_ROBIN("rr") {
        @Override
        public SchedulerFactory factory(double tickMs, int baseTicks) {
            return SchedulerFactory.roundRobin(tickMs);
        }
    },
    /** The Linux 2.4 priority scheduler (goodness, time slices in ticks, fork splits the slice). */
    LINUX24("linux24") {
        @Override
        public SchedulerFactory factory(double tickMs, int baseTicks) {
            return SchedulerFactory.linux24(new Linux24Scheduler.Config(tickMs, baseTicks));
        }
    };

    private final String spelling;

    SchedulerKind(String spelling) {
        this.spelling = spelling;
    }

    /** The name users write ({@code ps}, {@code rr}, {@code linux24}); also used in output. */
    public String spelling() {
        return spelling;
    }

    /**
     * The scheduler factory for a platform with timer tick {@code tickMs} (round robin: the
     * quantum) and Linux 2.4 base slice {@code baseTicks} (ignored by the other kinds).
     */
    public abstract SchedulerFactory factory(double tickMs, int baseTicks);

    /**
     * Parses a scheduler name ({@code ps}, {@code rr}, {@code linux24}; case and surrounding
     * blanks ignored).
     *
     * @throws IllegalArgumentException naming the text and the known names
     */
    public static SchedulerKind parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (SchedulerKind k : values()) {
            if (k.spelling.equals(t)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown scheduler '" + text + "' (known: ps, rr, linux24)");
    }

    @Override
    public String toString() {
        return spelling;
    }
}
