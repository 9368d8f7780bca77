package io.sonde.agent.config;

import io.sonde.agent.pattern.MethodFilter;
import io.sonde.agent.pattern.ThreadFilter;
import java.util.List;
import java.util.Map;

/**
 * The agent's configuration after parsing: what to instrument, which threads to monitor, and the
 * settings handed on to the core (writer and its options, CPU time, ...).
 *
 * @param methods which methods get a probe
 * @param threads which threads are monitored
 * @param executors whether trace context follows tasks handed to executors
 * @param probesOn whether probes start switched on ({@code probes=off}: every probe starts off
 *     and is switched on later through JMX)
 * @param jmx whether the {@code io.sonde:type=Probes} MBean is registered
 * @param verbose whether the agent logs each instrumented class to stderr
 * @param coreSettings every other key, in the order given, for the core's configuration
 * @param sources where the options came from, for messages ("-javaagent options", a file name)
 * @param weaveStats whether the agent measures where its weaving time goes and prints it at exit
 * @param weaver which weaver puts the probes into the methods
 */
public record AgentOptions(
        MethodFilter methods,
        ThreadFilter threads,
        boolean executors,
        boolean probesOn,
        boolean jmx,
        boolean verbose,
        Map<String, String> coreSettings,
        List<String> sources,
        boolean weaveStats,
        Weaver weaver) {

    /** The weaver of option {@code weaver}. */
    public enum Weaver {
        /** Plain ASM in one pass, no type resolution (the default; {@code ProbeWeaver}). */
        ASM,
        /** Byte Buddy's {@code Advice}, inlined (the weaver before; kept for comparison). */
        BYTE_BUDDY
    }

    public AgentOptions {
        coreSettings = Map.copyOf(coreSettings);
        sources = List.copyOf(sources);
    }
}
