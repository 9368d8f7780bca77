package io.sonde.cli;

import io.sonde.core.control.LocalJvm;
import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * are re-transformed. Afterwards prints the agent's status and any option errors (exit code 1).
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
        Path jar = locateAgentJar();
        String agentOptions = agentOptions();
        long pid = target.pid();
        try (LocalJvm jvm = LocalJvm.attach(pid)) {
            jvm.loadAgent(jar, agentOptions);
        }
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

    private Path locateAgentJar() {
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
