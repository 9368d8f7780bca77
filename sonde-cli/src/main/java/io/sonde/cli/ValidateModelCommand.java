package io.sonde.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.sim.profile.CalibrationProfile;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.sim.validate.LwsComparison;
import io.sonde.sim.validate.ProfileFitter;
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
 * with {@code --json FILE}, the report as JSON. {@code --fit FILE} first refits the profile on the
 * training rows only ({@link ProfileFitter}); {@code --lws [FILE]} adds the comparison of the
 * chapter-6 LWS model with the numbers the thesis text publishes ({@link LwsComparison}).
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

    @Option(names = "--fit", paramLabel = "FILE", description = "fit the profile's free parameters on the training rows only"
            + " (coordinate descent, once per servant clock) and write them as a .properties file usable with --profile;"
            + " then report with the fitted profile")
    Path fit;

    @Option(names = "--fit-sweeps", paramLabel = "N", description = "coordinate sweeps per servant clock of --fit (default 8)")
    int fitSweeps = 8;

    @Option(names = "--lws", paramLabel = "FILE", arity = "0..1", fallbackValue = "examples/lws.yaml",
            description = "also compare the LWS model (default examples/lws.yaml) with the numbers thesis chapter 6 publishes")
    Path lws;

    @Override
    public Integer call() {
        CalibrationProfile prof;
        try {
            prof = CalibrationProfile.load(profile);
        } catch (IllegalArgumentException e) {
            throw new UserError("--profile: " + e.getMessage());
        }
        if (lws != null && !Files.isRegularFile(lws)) {
            throw new UserError("--lws " + lws + ": no such file (run from the repository root or give the path of lws.yaml)");
        }
        PrintWriter w = spec.commandLine().getOut();
        if (fit != null) {
            prof = fit(prof, w);
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
        if (rows) {
            w.print(Validator.rowsReport(results));
        }
        w.print(Validator.report(results, prof));
        List<LwsComparison.Outcome> lwsOutcomes = null;
        if (lws != null) {
            try {
                lwsOutcomes = new LwsComparison(lws, seed, reps).run();
            } catch (RuntimeException e) {
                throw new UserError("--lws " + lws + ": " + e.getMessage());
            }
            w.print(LwsComparison.report(lwsOutcomes));
        }
        if (json != null) {
            try {
                ObjectNode report = Validator.json(results, s);
                if (lwsOutcomes != null) {
                    report.set("lws", LwsComparison.json(lwsOutcomes));
                }
                new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), report);
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

    /** Runs the fitter on the training rows, writes its profile file and returns the fitted profile. */
    private CalibrationProfile fit(CalibrationProfile base, PrintWriter w) {
        if (fitSweeps < 1 || fitSweeps > 100) {
            throw new UsageError("--fit-sweeps must be between 1 and 100, got " + fitSweeps);
        }
        ProfileFitter fitter = new ProfileFitter(ProfileFitter.defaultParameters(), 3, 6000, fitSweeps);
        ProfileFitter.Result r = fitter.fitWithClock(base, line -> {
            w.println("fit " + line);
            w.flush();
        });
        try {
            Path parent = fit.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(fit, fitter.properties(r));
        } catch (IOException e) {
            throw new UserError("--fit " + fit + ": cannot write: " + e.getMessage());
        }
        w.println("fitted profile: " + fit + " (use it with --profile " + fit + ")");
        return CalibrationProfile.load(fit.toString());
    }
}
