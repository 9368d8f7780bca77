package io.sonde.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sonde receive}. */
@Command(name = "receive", mixinStandardHelpOptions = true, description = "Accepts TCP writers and stores what arrives as binary files, one set per agent.")
public final class ReceiveCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("not built yet");
    }
}
