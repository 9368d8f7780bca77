package io.sonde.cli;

import io.sonde.core.control.AgentState;
import io.sonde.core.control.LocalJvm;
import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde attach --pid PID [--agent JAR] [--config FILE] [KEY=VALUE...]}: loads the Sonde
 * agent into a JVM that is already running (dynamic attach), with the same options as
 * {@code -javaagent:sonde-agent.jar=...}; classes already loaded that match the include patterns
 * are re-transformed, with the progress printed. Afterwards prints the agent's status and any option
 * errors (exit code 1), as the agent published them when done (no JMX connection; also with
 * {@code jmx=off}). A JVM whose agent already runs with other options is refused (exit code 1):
 * an agent's options cannot change while it runs.
 */
@Command(
        name = "attach",
        mixinStandardHelpOptions = true,
        description = {
            "Loads the Sonde agent into a running JVM on this machine (same user), with the same options as -javaagent.",
            "Example: sonde attach --pid 4711 include='com.acme.*' writer=file file.dir=/tmp/sonde"
        })
public final class AttachCommand implements Callable<Integer> {

    @Mixin
    TargetJvm target;

    @Option(names = "--agent", paramLabel = "JAR", description = "The agent jar (default: $SONDE_AGENT_JAR, else sonde-agent.jar next to the sonde jar or in the build tree).")
    Path agentJar;

    @Option(names = "--config", paramLabel = "FILE", description = "An agent configuration file (as config=FILE).")
    Path config;

    @Parameters(paramLabel = "KEY=VALUE", arity = "0..*", description = "Agent options, as in -javaagent:sonde-agent.jar=KEY=VALUE,... (see docs/agent.md).")
    List<String> options = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Path jar = locateAgentJar(agentJar);
        String agentOptions = agentOptions();
        long pid = target.pid();
        EarlyAttach.Attached attached = EarlyAttach.attach(pid); // most often started while picocli parsed
        try (LocalJvm jvm = attached.jvm()) {
            Properties before = attached.properties();
            String running = before.getProperty(AgentState.OPTIONS_PROPERTY);
            if (running != null) {
                if (!running.equals(agentOptions)) {
                    throw refused(pid, before, agentOptions);
                }
                out.println("the Sonde agent already runs in process " + pid + " with these options (loaded by "
                        + before.getProperty(AgentState.ORIGIN_PROPERTY) + ")");
            } else {
                // C2 kept off the weaver from its first batch on (docs/agent.md, "Attach"): added with the
                // attach, through this connection, so that the agent need not start the platform MBean
                // server for it; removed when the weaving is done. Where it could not be, the agent adds it.
                boolean directive = attached.directiveAdded();
                Properties done;
                try {
                    jvm.loadAgent(jar, directive ? AgentState.withDirectiveMark(agentOptions) : agentOptions);
                    done = awaitWeaving(jvm, agentOptions, out);
                } finally {
                    if (directive && !jvm.removeWeaverDirective()) {
                        spec.commandLine().getErr().println("sonde attach: could not remove the weaver's compiler "
                                + "directive from process " + pid + " (harmless: the weaver's code stays compiled by C1)");
                    }
                }
                // the status the agent published when done: no JMX connection to open (it costs as much as
                // a fifth of the command), and the same with jmx=off
                AgentState.Status status = done == null ? null : AgentState.Status.of(done);
                if (status != null) {
                    int errors = ProbesCommand.printStatus(status, out);
                    out.flush();
                    return errors == 0 ? 0 : 1;
                }
            }
        }
        // an agent that already ran (its current counters), or one that publishes no status: its MBean
        try (ProbeControlClient agent = ProbeControlClient.attach(pid)) {
            int errors = ProbesCommand.printStatus(agent.probes(), out);
            out.flush();
            return errors == 0 ? 0 : 1;
        } catch (ProbeControlException e) {
            if (e.reason() != ProbeControlException.Reason.NO_AGENT) {
                throw e;
            }
            out.println("agent loaded into process " + pid + " (its JMX MBean is switched off: jmx=off)");
            out.flush();
            return 0;
        }
    }

    /** How often, at most, a progress line is printed while the agent weaves. */
    private static final long PROGRESS_EVERY_NANOS = 500_000_000L;
    /** The pause between two reads of the progress (each one a request the target serves). */
    private static final long POLL_MILLIS = 50;
    /**
     * The pause once nine tenths of the classes are re-transformed: "done" comes within about
     * 0.1 s, and is seen 8 ms after it instead of 16 (medians; docs/benchmarks.md).
     */
    private static final long POLL_NEAR_DONE_MILLIS = 10;

    private static boolean nearlyDone(AgentState.Weaving w) {
        return w.total() > 0 && w.woven() * 10L >= w.total() * 9L;
    }

    /**
     * Follows the weaving the attach started (the agent publishes its progress as a system
     * property) until it is done, printing the progress; returns the target's system properties
     * when done, null for an agent that publishes no progress.
     */
    private static Properties awaitWeaving(LocalJvm jvm, String agentOptions, PrintWriter out) {
        long lastPrint = 0;
        while (true) {
            Properties now = jvm.systemProperties();
            String running = now.getProperty(AgentState.OPTIONS_PROPERTY);
            if (running != null && !running.equals(agentOptions)) {
                throw refused(jvm.pid(), now, agentOptions); // another attach came first
            }
            AgentState.Weaving w = AgentState.Weaving.of(now);
            if (w == null) {
                return null; // an agent that publishes no progress
            }
            if (w.done()) {
                if (running != null) {
                    out.println("woven: " + w.woven() + " loaded class(es) re-transformed, " + w.millis()
                            + " ms after the agent was loaded");
                    String phases = now.getProperty(AgentState.PHASES_PROPERTY);
                    if (phases != null) {
                        out.println("where the time went: " + phases);
                    }
                }
                return now;
            }
            long t = System.nanoTime();
            if (w.total() > 0 && (lastPrint == 0 || t - lastPrint >= PROGRESS_EVERY_NANOS)) {
                out.println("weaving: " + w.woven() + "/" + w.total() + " loaded classes");
                out.flush();
                lastPrint = t;
            }
            try {
                Thread.sleep(nearlyDone(w) ? POLL_NEAR_DONE_MILLIS : POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** The error for an attach to a JVM whose agent runs with other options. */
    private static UserError refused(long pid, Properties target, String agentOptions) {
        return new UserError("process " + pid + " already runs the Sonde agent (loaded by "
                + target.getProperty(AgentState.ORIGIN_PROPERTY) + " with options '"
                + target.getProperty(AgentState.OPTIONS_PROPERTY) + "'); an agent is loaded once per JVM and its "
                + "options cannot change, so '" + agentOptions + "' were not applied. Switch its probes with "
                + "'sonde probes --pid " + pid + " enable|disable PATTERN', or restart the JVM with the new options");
    }

    /** The options string: the KEY=VALUE arguments joined with commas; paths made absolute. */
    String agentOptions() {
        List<String> parts = new ArrayList<>();
        if (config != null) {
            if (!Files.isReadable(config)) {
                throw new UserError("--config " + config + ": no such readable file");
            }
            parts.add("config=" + config.toAbsolutePath());
        }
        for (String o : options) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                throw new UsageError("option '" + o + "' is not KEY=VALUE");
            }
            if (o.contains(",")) {
                throw new UsageError("option '" + o + "' contains a comma; give each option as its own argument");
            }
            String key = o.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = o.substring(eq + 1).trim();
            // the target JVM has its own working directory: paths are resolved here, where the user typed them
            if (key.equals("config") || key.equals("file.dir")) {
                value = Path.of(value).toAbsolutePath().toString();
            }
            parts.add(o.substring(0, eq).trim() + "=" + value);
        }
        return String.join(",", parts);
    }

    /**
     * The agent jar: {@code agentJar} when given, else $SONDE_AGENT_JAR, else sonde-agent.jar next
     * to the sonde jar or in the build tree (also used by {@code sonde lab}).
     */
    static Path locateAgentJar(Path agentJar) {
        if (agentJar != null) {
            if (!Files.isRegularFile(agentJar)) {
                throw new UserError("--agent " + agentJar + ": no such file");
            }
            return agentJar.toAbsolutePath();
        }
        String env = System.getenv("SONDE_AGENT_JAR");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            if (!Files.isRegularFile(p)) {
                throw new UserError("SONDE_AGENT_JAR=" + env + ": no such file");
            }
            return p.toAbsolutePath();
        }
        List<Path> candidates = new ArrayList<>();
        try {
            Path self = Path.of(AttachCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(self) ? self : self.getParent(); // sonde.jar, or target/classes
            candidates.add(dir.resolve("sonde-agent.jar"));
            // in the build tree: sonde-cli/target/sonde.jar or sonde-cli/target/classes
            for (Path up = dir; up != null; up = up.getParent()) {
                candidates.add(up.resolve("sonde-agent").resolve("target").resolve("sonde-agent.jar"));
            }
        } catch (Exception e) {
            // no code source: only the explicit ways remain
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                return c.toAbsolutePath().normalize();
            }
        }
        throw new UserError("cannot find sonde-agent.jar: give --agent JAR or set SONDE_AGENT_JAR (build it with "
                + "'mvn -pl sonde-agent -am package')");
    }
}
