package io.sonde.core.control;

import java.util.Properties;

/**
 * What a running Sonde agent publishes about itself as system properties of its JVM, for
 * {@code sonde attach} (which reads them through the attach API, see
 * {@link LocalJvm#systemProperties()}): the options it runs with, how it was loaded, and the
 * progress of the weaving an attach started. Only the same user (attach API) or code inside the
 * JVM can read them. Both ends compile against this class (sonde-core is in the agent and the CLI).
 * The names do not start with {@code sonde.}: those system properties are configuration keys.
 */
public final class AgentState {

    /** The options string the running agent was started with (set once the agent runs). */
    public static final String OPTIONS_PROPERTY = "io.sonde.agent.options";
    /** How it was loaded: {@link #JAVAAGENT} or {@link #ATTACH}. */
    public static final String ORIGIN_PROPERTY = "io.sonde.agent.origin";
    /**
     * Progress of the weaving an attach started: {@code weaving W/T} (W of T loaded classes
     * re-transformed so far) and at the end {@code done W/T MILLIS} (MILLIS since the agent
     * was loaded). Set to {@code weaving 0/0} before {@code agentmain} returns, so a client
     * that sees another value did not start this attach.
     */
    public static final String WEAVING_PROPERTY = "io.sonde.agent.weaving";
    /**
     * Where an attach's time went, set just before {@link #WEAVING_PROPERTY} says {@code done}:
     * {@code PHASE M ms, ...} in order, from the JVM calling {@code agentmain} to the weaving done.
     */
    public static final String PHASES_PROPERTY = "io.sonde.agent.phases";

    /** Origin of an agent started by {@code -javaagent}. */
    public static final String JAVAAGENT = "-javaagent";
    /** Origin of an agent loaded into a running JVM. */
    public static final String ATTACH = "attach";

    private AgentState() {}

    /** The weaving progress of an attach: done, classes re-transformed, classes to do, time. */
    public record Weaving(boolean done, int woven, int total, long millis) {

        /** Reads {@link #WEAVING_PROPERTY}; null when absent or not in the published form. */
        public static Weaving of(Properties properties) {
            String v = properties.getProperty(WEAVING_PROPERTY);
            if (v == null) {
                return null;
            }
            String[] words = v.trim().split(" ");
            try {
                boolean done = words[0].equals("done");
                String[] counts = words[1].split("/");
                return new Weaving(done, Integer.parseInt(counts[0]), Integer.parseInt(counts[1]),
                        done && words.length > 2 ? Long.parseLong(words[2]) : 0);
            } catch (RuntimeException e) {
                return null;
            }
        }

        /** The property value for this state. */
        public String format() {
            return (done ? "done " : "weaving ") + woven + "/" + total + (done ? " " + millis : "");
        }
    }
}
