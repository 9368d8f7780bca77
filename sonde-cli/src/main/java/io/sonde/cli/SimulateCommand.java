package io.sonde.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sonde simulate}. */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = "Simulates a performance model and predicts response times and throughput.")
public final class SimulateCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UserError("not built yet");
    }
}
