package io.sonde.core.control;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What a running Sonde agent publishes about itself as system properties of its JVM, for
 * {@code sonde attach} (which reads them through the attach API, see
 * {@link LocalJvm#systemProperties()}): the options it runs with, how it was loaded, the
 * progress of the weaving an attach started and, once it is done, the agent's status (so the
 * command needs no JMX connection to print it). Only the same user (attach API) or code inside the
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
    /**
     * The agent's status as {@code sonde probes status} prints it ({@link Status#lines()}, one
     * per line), set by an attach just before {@link #WEAVING_PROPERTY} says {@code done}, and
     * cleared when an attach starts.
     */
    public static final String STATUS_PROPERTY = "io.sonde.agent.status";
    /** How many of the {@link #STATUS_PROPERTY} lines are option errors; set with it. */
    public static final String STATUS_ERRORS_PROPERTY = "io.sonde.agent.status.errors";

    /**
     * Set by an attached agent with its MBean on ({@code jmx=on}) before {@link #WEAVING_PROPERTY}
     * says {@code done}, and removed once the MBean is registered (or failed to be): the MBean is
     * registered right after "done", and a client that needs it (a JMX connection) waits while
     * this is set.
     */
    public static final String MBEAN_PENDING_PROPERTY = "io.sonde.agent.mbean.pending";

    /**
     * The compiler directive that keeps HotSpot's C2 off the weaver (its packages and the shaded
     * ASM) while an attach re-transforms the loaded classes (docs/agent.md, "Attach"): added by
     * {@code sonde attach} through the attach connection before it loads the agent, else by the
     * agent itself.
     */
    public static final String WEAVER_C2_DIRECTIVE = "[{match: [\"io/sonde/agent/instrument/*.*\", "
            + "\"io/sonde/agent/shaded/bytebuddy/jar/asm/*.*\"], c2: {Exclude: true}}]";

    /**
     * The first entry of the options string a client gives {@code agentmain} when it has added
     * {@link #WEAVER_C2_DIRECTIVE} itself and removes it when the weaving is done: the agent then
     * does not add it. Not an option: the agent takes it off before it reads the options
     * ({@link #withoutDirectiveMark}), so it is neither parsed nor published.
     */
    public static final String DIRECTIVE_ADDED_MARK = "io.sonde.attach.weaver-directive=added";

    /** {@code options} with {@link #DIRECTIVE_ADDED_MARK} in front. */
    public static String withDirectiveMark(String options) {
        return options.isEmpty() ? DIRECTIVE_ADDED_MARK : DIRECTIVE_ADDED_MARK + "," + options;
    }

    /** True when {@code options} (as given to {@code agentmain}) start with {@link #DIRECTIVE_ADDED_MARK}. */
    public static boolean hasDirectiveMark(String options) {
        return options != null && (options.equals(DIRECTIVE_ADDED_MARK) || options.startsWith(DIRECTIVE_ADDED_MARK + ","));
    }

    /** {@code options} without a leading {@link #DIRECTIVE_ADDED_MARK}; unchanged when it has none. */
    public static String withoutDirectiveMark(String options) {
        if (!hasDirectiveMark(options)) {
            return options;
        }
        return options.length() == DIRECTIVE_ADDED_MARK.length() ? "" : options.substring(DIRECTIVE_ADDED_MARK.length() + 1);
    }

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

    /**
     * The agent's status as a person reads it: its state, probe counts, counters and option
     * errors, one line each; {@code errors} of them are option errors (the agent then monitors
     * nothing). The same lines whether read over JMX ({@code sonde probes status}) or, after an
     * attach, from {@link #STATUS_PROPERTY}.
     */
    public record Status(List<String> lines, int errors) {

        /** Copies the lines. */
        public Status {
            lines = List.copyOf(lines);
        }

        /** The status of the agent behind {@code probes} as it is now. */
        public static Status of(ProbeControlMBean probes) {
            List<String> lines = new ArrayList<>();
            lines.add("status: " + probes.getStatus());
            lines.add("probes: " + probes.getProbeCount() + " (" + probes.getEnabledProbeCount()
                    + " on), classes instrumented: " + probes.getInstrumentedClassCount());
            lines.addAll(Arrays.asList(probes.getCounters()));
            String[] errors = probes.getConfigErrors();
            for (String e : errors) {
                lines.add("error: " + e);
            }
            return new Status(lines, errors.length);
        }

        /**
         * Reads {@link #STATUS_PROPERTY} and {@link #STATUS_ERRORS_PROPERTY}; null when either
         * is absent or not in the published form (an agent that does not publish its status).
         */
        public static Status of(Properties properties) {
            String text = properties.getProperty(STATUS_PROPERTY);
            String errors = properties.getProperty(STATUS_ERRORS_PROPERTY);
            if (text == null || errors == null) {
                return null;
            }
            try {
                return new Status(text.isEmpty() ? List.of() : List.of(text.split("\n", -1)), Integer.parseInt(errors));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** Sets {@link #STATUS_PROPERTY} and {@link #STATUS_ERRORS_PROPERTY} in {@code properties}. */
        public void publish(Properties properties) {
            // the errors first: a reader that finds the text finds its count (both are read at once anyway)
            properties.setProperty(STATUS_ERRORS_PROPERTY, Integer.toString(errors));
            properties.setProperty(STATUS_PROPERTY, String.join("\n", lines));
        }
    }
}
