package io.sonde.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sonde dump}. */
@Command(name = "dump", mixinStandardHelpOptions = true, description = "Prints the records of a binary log as text.")
public final class DumpCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("not built yet");
    }
}
