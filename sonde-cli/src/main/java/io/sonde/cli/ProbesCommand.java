package io.sonde.cli;

import io.sonde.core.control.AgentState;
import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlException;
import io.sonde.core.control.ProbeControlMBean;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code sonde probes --pid PID list [PATTERN] | enable PATTERN | disable PATTERN | status}:
 * lists and switches the method probes of a JVM running the Sonde agent on this machine, with no
 * restart. Each action is a sub-command; all talk to the agent's MBean through
 * {@link ProbeControlClient} (attach API, then the agent's loopback-only JMX connector).
 */
@Command(
        name = "probes",
        mixinStandardHelpOptions = true,
        description = {
            "Lists or switches the method probes of a running JVM with the Sonde agent (same machine, same user).",
            "PATTERN: wildcards over probe names <class>.<method>, e.g. 'com.acme.*.get*' (* any run of characters, ? one)."
        },
        subcommands = {ProbesCommand.List.class, ProbesCommand.Enable.class, ProbesCommand.Disable.class, ProbesCommand.Status.class})
public final class ProbesCommand implements Callable<Integer> {

    @Mixin
    TargetJvm target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without an action: a usage error. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give an action: list, enable, disable or status");
    }

    /** Connects to the agent of {@code --pid}, runs {@code action}, prints with the command's writer. */
    int run(CommandLine.Model.CommandSpec sub, Action action) {
        PrintWriter out = sub.commandLine().getOut();
        try (ProbeControlClient agent = target.connect()) {
            int code = action.run(agent.probes(), out);
            out.flush();
            return code;
        }
    }

    /** One action on the agent's MBean; returns the exit code. */
    interface Action {
        int run(ProbeControlMBean probes, PrintWriter out);
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the probes (on|off id name signature).")
    static final class List implements Callable<Integer> {
        @ParentCommand ProbesCommand parent;
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "PATTERN", defaultValue = "*", description = "Probe name pattern (default: ${DEFAULT-VALUE}).")
        String pattern;

        @Override
        public Integer call() {
            return parent.run(spec, (probes, out) -> {
                String[] lines = probes.listMatching(pattern);
                for (String line : lines) {
                    out.println(line);
                }
                if (lines.length == 0) {
                    out.println("(no probe matches " + pattern + ")");
                }
                return 0;
            });
        }
    }

    /** enable and disable: the same but for the direction of the switch. */
    abstract static class Switch implements Callable<Integer> {
        @ParentCommand ProbesCommand parent;
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "PATTERN", description = "Probe name pattern, e.g. 'com.acme.*'.")
        String pattern;

        abstract boolean on();

        @Override
        public Integer call() {
            return parent.run(spec, (probes, out) -> {
                int count = on() ? probes.enable(pattern) : probes.disable(pattern);
                out.println((on() ? "enabled " : "disabled ") + count + " probe(s) matching " + pattern
                        + " (classes loaded later follow the same switch)");
                return 0;
            });
        }
    }

    @Command(name = "enable", mixinStandardHelpOptions = true, description = "Switches on the probes whose names match (also of classes loaded later).")
    static final class Enable extends Switch {
        @Override
        boolean on() {
            return true;
        }
    }

    @Command(name = "disable", mixinStandardHelpOptions = true, description = "Switches off the probes whose names match (also of classes loaded later).")
    static final class Disable extends Switch {
        @Override
        boolean on() {
            return false;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Prints the agent's status, probe counts, counters and option errors.")
    static final class Status implements Callable<Integer> {
        @ParentCommand ProbesCommand parent;
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            return parent.run(spec, (probes, out) -> {
                printStatus(probes, out);
                return 0;
            });
        }
    }

    /** Prints status, counters and configuration errors; returns the number of errors. */
    static int printStatus(ProbeControlMBean probes, PrintWriter out) {
        return printStatus(AgentState.Status.of(probes), out);
    }

    /** Prints a status's lines; returns its number of configuration errors. */
    static int printStatus(AgentState.Status status, PrintWriter out) {
        for (String line : status.lines()) {
            out.println(line);
        }
        return status.errors();
    }

    /** The hint users need when a process has no agent to talk to. */
    static UserError noAgent(ProbeControlException e) {
        return new UserError(e.getMessage() + "; start it with -javaagent:sonde-agent.jar or 'sonde attach'", e);
    }
}
