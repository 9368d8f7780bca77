package io.sonde.agent.jmx;

/**
 * Management interface of the agent, registered as {@code io.sonde:type=Probes} in the platform
 * MBean server (visible in jconsole, and used by {@code sonde probes}). Patterns are the same
 * wildcards as the {@code include} option, matched against probe names
 * {@code <binary class name>.<method name>}.
 */
public interface ProbesMBean {

    /** One line per woven probe: {@code on|off <id> <name> <signature>}. */
    String[] list();

    /** As {@link #list()}, only probes whose names match the pattern. */
    String[] listMatching(String pattern);

    /**
     * Switches on every probe whose name matches (also probes of classes loaded later); returns
     * how many probes changed state.
     */
    int enable(String pattern);

    /**
     * Switches off every probe whose name matches (also probes of classes loaded later); returns
     * how many probes changed state.
     */
    int disable(String pattern);

    /** Number of probes woven so far. */
    int getProbeCount();

    /** Number of probes currently on. */
    int getEnabledProbeCount();

    /** Number of classes woven so far. */
    int getInstrumentedClassCount();

    /** The core's counters: records produced, written and dropped (by reason), as "name=value". */
    String[] getCounters();

    /** Problems found in the options (the agent then monitors nothing); empty when none. */
    String[] getConfigErrors();

    /** One line: running or not, with what options source. */
    String getStatus();
}
