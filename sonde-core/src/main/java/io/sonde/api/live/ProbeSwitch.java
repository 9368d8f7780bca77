package io.sonde.api.live;

import java.util.List;

/**
 * The switch of a process's method probes by name pattern (the one the Sonde agent's
 * {@code io.sonde:type=Probes} MBean has), as the observe endpoint's PROBES_ON / PROBES_OFF
 * requests reach it. The agent registers its switch for the process at start
 * ({@link #registerForProcess}); without an agent there is none and those requests are answered
 * with an error. Patterns are the agent's {@code include} wildcards
 * over {@code <binary class name>.<method name>}. The observe endpoint's PROBE_LIST reaches
 * {@link #list}.
 */
public interface ProbeSwitch {
    /** Who set a probe's present state. */
    enum Origin {
        /** The agent's configuration when the class was woven; nothing switched it since. */
        CONFIGURED,
        /** A run-time switch by pattern (the MBean, or an observer's PROBES_ON / PROBES_OFF). */
        SWITCHED,
        /** The overhead budget switched it off. */
        BUDGET
    }

    /**
     * One probe as a listing reports it: {@code name} is {@code <binary class name>.<method name>},
     * {@code signature} the JVM descriptor; {@code detail} says why the state is what it is (the
     * switch and its pattern, or the budget's reason; empty for {@link Origin#CONFIGURED}).
     */
    record Probe(int id, String name, String signature, boolean on, Origin origin, String detail) {}

    /** One page of a listing: {@code total} probes match; {@code probes} are those from {@code offset} on. */
    record Page(int total, int offset, List<Probe> probes) {
        public Page {
            probes = List.copyOf(probes);
        }
    }

    /**
     * The probes whose names match {@code pattern}, in the order they were woven: those from the
     * {@code offset}-th match on (from 0), at most {@code limit}. A switch that cannot list throws
     * {@link UnsupportedOperationException} (the observe endpoint answers UNAVAILABLE).
     */
    default Page list(String pattern, int offset, int limit) {
        throw new UnsupportedOperationException("this process's probe switch cannot list its probes");
    }

    /** Switches on the matching probes (also of classes loaded later); returns how many changed. */
    int enable(String pattern);

    /** Switches off the matching probes (also of classes loaded later); returns how many changed. */
    int disable(String pattern);

    /**
     * Registers {@code probes} as the process's switch (null unregisters): every live tree without a
     * switch of its own ({@link LiveTree#registerProbeSwitch}) uses it. Loads nothing of the live
     * layer, so the agent can call it at start at no cost.
     */
    static void registerForProcess(ProbeSwitch probes) {
        ProcessProbeSwitch.current = probes;
    }

    /** The process's switch, or null. */
    static ProbeSwitch forProcess() {
        return ProcessProbeSwitch.current;
    }
}
