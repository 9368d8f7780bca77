package io.sonde.agent;

/**
 * The agent's messages: one line each on the application's stderr, prefixed {@code sonde-agent:}.
 * The agent never prints stack traces to users.
 */
public final class AgentLog {

    private AgentLog() {}

    /** Prints one line. */
    public static void info(String message) {
        System.err.println("sonde-agent: " + message);
    }
}
