package io.sonde.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sonde validate-model}. */
@Command(name = "validate-model", mixinStandardHelpOptions = true, description = "Reproduces the thesis' validation tables and compares the simulator's error.")
public final class ValidateModelCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("not built yet");
    }
}
