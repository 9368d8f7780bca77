package io.sonde.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sonde demo}. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Runs a multi-threaded sample program instrumented through the API and summarises its binary log.")
public final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("not built yet");
    }
}
