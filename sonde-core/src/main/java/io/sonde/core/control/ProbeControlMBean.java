package io.sonde.core.control;

/**
 * Management interface of the Sonde agent, registered under {@link #OBJECT_NAME} in the platform
 * MBean server of the monitored JVM (visible in jconsole, used by {@code sonde probes}, the
 * benchmarks and {@link ProbeControlClient}). Patterns are the same wildcards as the agent's
 * {@code include} option, matched against probe names {@code <binary class name>.<method name>}.
 *
 * <p>The agent implements this interface and {@link ProbeControlClient} reaches it through a typed
 * JMX proxy, so both ends compile against this one declaration (the agent jar relocates only Byte
 * Buddy: this class keeps its name in the agent and in every client).
 */
public interface ProbeControlMBean {

    /** The name under which the agent registers its MBean. */
    String OBJECT_NAME = "io.sonde:type=Probes";

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
