package io.sonde.cli;

import io.sonde.core.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sonde} command: one entry point for every capability. Each sub-command lives in its
 * own class next to this one; errors meant for users are thrown as {@link UserError} and printed
 * as one line without a stack trace.
 */
@Command(
        name = "sonde",
        mixinStandardHelpOptions = true,
        versionProvider = SondeCommand.Version.class,
        description = "Low-overhead monitoring middleware: monitor, measure, model, predict.",
        subcommands = {
            CommandLine.HelpCommand.class,
            DemoCommand.class,
            ReceiveCommand.class,
            DumpCommand.class,
            AnalyzeCommand.class,
            SimulateCommand.class,
            ValidateModelCommand.class,
            AttachCommand.class, ProbesCommand.class,
        })
public final class SondeCommand implements Runnable {

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
        CommandLine cl = new CommandLine(new SondeCommand());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            // A bad Sonde setting (config file, SONDE_* variable, sonde.* property) is the user's to fix.
            if (ex instanceof UserError || ex instanceof ConfigException) {
                commandLine.getErr().println("sonde " + commandLine.getCommandName() + ": " + ex.getMessage());
                return 1;
            }
            throw ex;
        });
        return cl.execute(args);
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
