package io.sonde.api.live;

/**
 * The switch of a process's method probes by name pattern (the one the Sonde agent's
 * {@code io.sonde:type=Probes} MBean has), as the observe endpoint's PROBES_ON / PROBES_OFF
 * requests reach it. The agent registers its switch for the process at start
 * ({@link #registerForProcess}); without an agent there is none and those requests are answered
 * with an error. Patterns are the agent's {@code include} wildcards
 * over {@code <binary class name>.<method name>}.
 */
public interface ProbeSwitch {
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
