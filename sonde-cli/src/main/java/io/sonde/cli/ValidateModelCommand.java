package io.sonde.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.sim.profile.CalibrationProfile;
import io.sonde.sim.validate.ValidationPlots;
import io.sonde.sim.validate.Validator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sonde validate-model}: re-runs the validation experiments of the thesis (Tables 5.1-5.7)
 * with one calibration profile and prints, per table, Sonde's mean absolute relative error against
 * the measurements beside the error of the thesis' simulator (DAPS L24) on the same rows, separately
 * for the held-out and the training rows, with the profile's fitted-parameter count beside the
 * independent data points; writes PNG plots like the thesis' Figures 5.2-5.5 and 5.10-5.12 and,
 * with {@code --json FILE}, the report as JSON.
 */
@Command(name = "validate-model", mixinStandardHelpOptions = true,
        description = "Reproduces the thesis' validation tables 5.1-5.7 and compares Sonde's error with DAPS L24's.")
public final class ValidateModelCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "directory for the PNG plots (default: validate-model-out)")
    Path out = Path.of("validate-model-out");

    @Option(names = "--replications", paramLabel = "N", description = "replications per simulated row (default 10; --quick: 6)")
    Integer replications;

    @Option(names = "--quick", description = "6 instead of 10 replications")
    boolean quick;

    @Option(names = "--profile", paramLabel = "NAME", description = "calibration profile (default " + CalibrationProfile.DEFAULT + ")")
    String profile = CalibrationProfile.DEFAULT;

    @Option(names = "--seed", paramLabel = "N", description = "random seed (default 1)")
    long seed = 1;

    @Option(names = "--rows", description = "also print every row (experiment, DAPS L24, Sonde)")
    boolean rows;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the report as JSON (per table training and held-out rows)")
    Path json;

    @Override
    public Integer call() {
        CalibrationProfile prof;
        try {
            prof = CalibrationProfile.load(profile);
        } catch (IllegalArgumentException e) {
            throw new UserError("--profile: " + e.getMessage());
        }
        Validator.Settings base = quick ? Validator.Settings.quick(prof) : Validator.Settings.full(prof);
        int reps = replications != null ? replications : base.replications();
        if (reps < 2 || reps > 1000) {
            throw new UsageError("--replications must be between 2 and 1000, got " + reps);
        }
        Validator.Settings s = new Validator.Settings(prof, reps, seed, base.openRequests(), base.requestsPerClient(), base.minDurationMs());
        if (json != null) {
            // fail before the minute-long run when the file cannot be created
            try {
                Path parent = json.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
            } catch (IOException e) {
                throw new UserError("--json " + json + ": cannot create its directory: " + e.getMessage());
            }
        }
        List<Validator.TableResult> results = new Validator(s).run();
        PrintWriter w = spec.commandLine().getOut();
        if (rows) {
            w.print(Validator.rowsReport(results));
        }
        w.print(Validator.report(results, prof));
        if (json != null) {
            try {
                new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), Validator.json(results, s));
            } catch (IOException e) {
                throw new UserError("--json " + json + ": cannot write: " + e.getMessage());
            }
            w.println("JSON: " + json);
        }
        try {
            List<Path> files = ValidationPlots.write(results, out);
            w.println("plots: " + files.size() + " PNG files in " + out.toAbsolutePath());
        } catch (IOException e) {
            throw new UserError("--out " + out + ": cannot write plots: " + e.getMessage());
        }
        long worse = results.stream().filter(r -> !r.accepted()).count();
        w.println(worse == 0 ? "held-out rows: no table worse than DAPS L24 beyond the measurement scatter"
                : "held-out rows: " + worse + " table(s) worse than DAPS L24 beyond the measurement scatter");
        w.flush();
        return 0;
    }
}
