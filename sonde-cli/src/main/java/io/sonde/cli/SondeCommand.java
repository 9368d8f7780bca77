package io.sonde.cli;

import io.sonde.cli.live.GetCommand;
import io.sonde.cli.live.LsCommand;
import io.sonde.cli.live.ProbeListCommand;
import io.sonde.cli.live.SensorSwitchCommand;
import io.sonde.cli.live.WatchCommand;
import io.sonde.core.config.ConfigException;
import io.sonde.core.control.ProbeControlException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sonde} command: one entry point for every capability. Each sub-command lives in its
 * own class next to this one (picocli sub-commands, some with sub-commands of their own).
 *
 * <p>Exit codes: 0 success; 2 usage error, i.e. the command line does not parse (unknown option
 * or command, a value of the wrong type, a missing parameter, mutually exclusive options) or a
 * value the command rejects after parsing ({@link UsageError}: out of range, options that do not go
 * together); 1 a run that fails ({@link UserError}, a bad Sonde setting, an unreachable agent, an
 * unreadable file). Every error is one line on stderr,
 * {@code sonde <command>: <problem>}, without a stack trace (set {@code SONDE_DEBUG=1} to get one
 * for an internal error).
 */
@Command(
        name = "sonde",
        mixinStandardHelpOptions = true,
        versionProvider = SondeCommand.Version.class,
        description = "Low-overhead monitoring middleware: monitor, measure, model, predict.")
public final class SondeCommand implements Runnable {

    /**
     * The sub-commands, in the order {@code sonde --help} lists them. Added by {@link
     * #commandLine(String...)}, not by the annotation, so that a command line naming one builds
     * only that one.
     */
    private static final List<Class<?>> COMMANDS = List.of(
            CommandLine.HelpCommand.class,
            DemoCommand.class,
            ReceiveCommand.class,
            DumpCommand.class,
            AnalyzeCommand.class,
            CollectorCommand.class,
            QueryCommand.class,
            SimulateCommand.class,
            ValidateModelCommand.class,
            AttachCommand.class, ProbesCommand.class,
            LsCommand.class, GetCommand.class, WatchCommand.class,
            SensorSwitchCommand.Suspend.class, SensorSwitchCommand.Resume.class, ProbeListCommand.class,
            LabCommand.class, PredictCommand.class,
            DashboardCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (0 ok, 1 failure, 2 usage error). */
    public static int execute(String... args) {
        // sonde attach: the attach itself starts now, beside picocli's work (EarlyAttach)
        EarlyAttach early = EarlyAttach.startFor(args);
        try {
            return run(args);
        } finally {
            if (early != null) {
                early.closeIfUntaken();
            }
        }
    }

    private static int run(String... args) {
        CommandLine cl = commandLine(args);
        cl.setParameterExceptionHandler((ex, arguments) -> {
            CommandLine c = ex.getCommandLine();
            String name = c.getCommandSpec().qualifiedName();
            c.getErr().println(name + ": " + usageProblem(ex) + " (see '" + name + " --help')");
            c.getErr().flush();
            return CommandLine.ExitCode.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            String name = commandLine.getCommandSpec().qualifiedName();
            if (ex instanceof UsageError) {
                err.println(name + ": " + ex.getMessage() + " (see '" + name + " --help')");
                err.flush();
                return CommandLine.ExitCode.USAGE;
            }
            if (isFailureForUser(ex)) {
                err.println(name + ": " + ex.getMessage());
            } else {
                err.println(name + ": internal error: " + ex + (System.getenv("SONDE_DEBUG") == null ? " (SONDE_DEBUG=1 shows the stack trace)" : ""));
                if (System.getenv("SONDE_DEBUG") != null) {
                    ex.printStackTrace(err);
                }
            }
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        });
        return cl.execute(args);
    }

    /**
     * The {@code sonde} command line for {@code args}. When the first argument names a sub-command
     * (not {@code help}), only that one is added: picocli inspects each sub-command's
     * annotations when it is added, about 70 ms for all of them on a cold JVM, a sixteenth of a
     * {@code sonde attach} (docs/benchmarks.md); that sub-command parses, runs and prints its help
     * and errors as in the whole tree. Otherwise (no argument, an option, {@code help}, an unknown
     * name) every sub-command is added.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new SondeCommand());
        Class<?> named = args.length == 0 ? null : subcommandNamed(args[0]);
        for (Class<?> c : COMMANDS) {
            if (named == null || c == named) {
                cl.addSubcommand(c);
            }
        }
        return cl;
    }

    /** The sub-command (other than help) whose name or alias is {@code name}, or null. */
    private static Class<?> subcommandNamed(String name) {
        for (Class<?> c : COMMANDS) {
            Command a = c.getAnnotation(Command.class);
            if (c != CommandLine.HelpCommand.class && (a.name().equals(name) || Arrays.asList(a.aliases()).contains(name))) {
                return c;
            }
        }
        return null;
    }

    /**
     * Failures whose message is meant for users: their input or environment, a bad Sonde setting
     * (config file, SONDE_* variable, sonde.* property), an agent that cannot be reached, I/O.
     */
    private static boolean isFailureForUser(Exception ex) {
        return ex instanceof UserError || ex instanceof ConfigException || ex instanceof ProbeControlException
                || ex instanceof IOException || ex instanceof UncheckedIOException;
    }

    /** Picocli's message, with unknown sub-commands named as such and the valid ones listed. */
    private static String usageProblem(CommandLine.ParameterException ex) {
        CommandLine c = ex.getCommandLine();
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !c.getSubcommands().isEmpty()
                && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
            return "unknown command '" + u.getUnmatched().get(0) + "': use "
                    + c.getSubcommands().keySet().stream().collect(Collectors.joining(", "));
        }
        String m = ex.getMessage();
        return m.startsWith("Error: ") ? m.substring("Error: ".length()) : m;
    }

    /** Reports the version from the jar manifest (falls back to "dev" when run from classes). */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SondeCommand.class.getPackage().getImplementationVersion();
            return new String[] {"sonde " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
