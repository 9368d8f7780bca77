package io.sonde.sim.validate;

import io.sonde.sim.profile.CalibrationProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Fits the calibration profile's free parameters on the <em>training rows</em> of Tables 5.1-5.7
 * only ({@link ThesisTables}: the held-out rows never enter the objective), by coordinate descent
 * from declared starting values that were not fitted to any row.
 *
 * <p>Objective: the mean over the seven tables of Sonde's mean absolute relative error on the
 * table's training rows (each table weighs the same, so Table 5.1's small queuing times do not
 * outweigh the response-time tables by their row count). The simulations use the fitting seed
 * {@link #FIT_SEED}, not the reporting seed of {@code sonde validate-model} (1), so the report does
 * not re-use the random numbers the fit was tuned on.
 *
 * <p>Coordinate descent: per sweep every parameter in turn tries its value plus and minus its step
 * (clamped to its bounds) and keeps the best value when it lowers the objective; a parameter whose
 * step found nothing halves its step. The fit ends after {@code maxSweeps} sweeps or when no
 * parameter moved in a sweep and every step is below its resolution. With the same inputs the result
 * is the same (the model is deterministic for a seed).
 */
public final class ProfileFitter {

    /** Seed of the fitting runs (differs from the report's seed 1 on purpose). */
    public static final long FIT_SEED = 11;

    /**
     * A fitted parameter.
     *
     * @param key profile key
     * @param start starting value, not fitted to any row ({@code why} says where it comes from)
     * @param step initial step of the coordinate descent
     * @param min lower bound
     * @param max upper bound
     * @param resolution the value is rounded to a multiple of this; the fit stops refining below it
     * @param partner a key whose value follows this one: {@code partner = sum + factor * value}, or null
     * @param sum see {@code partner}
     * @param factor see {@code partner}: -1 keeps {@code key + partner} at {@code sum} (a split of a sum
     *     the thesis text gives), +1 with sum 0 keeps the two equal
     * @param why where the starting value comes from
     */
    public record Parameter(String key, double start, double step, double min, double max, double resolution,
            String partner, double sum, double factor, String why) {

        double partnerValue(double v) {
            return round(sum + factor * v, resolution);
        }

        double round(double v) {
            return round(Math.max(min, Math.min(max, v)), resolution);
        }

        private static double round(double v, double resolution) {
            // print like the profile: no binary noise in the decimals
            return Double.parseDouble(String.format(Locale.ROOT, "%.6f", Math.round(v / resolution) * resolution));
        }
    }

    /**
     * The free continuous parameters of the default profile with their starting values. Everything
     * else in the profile is taken from the thesis text, left out of the model, or a discrete choice
     * (docs/simulator.md, "Calibration profile").
     */
    public static List<Parameter> defaultParameters() {
        // 5.3.2: the receiver uses 0.925 ms CPU per request in the thread-pool set-up; b_rec + b_enqueue
        // keep the current 0.89 ms (the rest are wake-ups). The split starts in the middle.
        double receiverSum = 0.89;
        // 5.3.2: a dispatcher uses 5.6 ms per request, 5 ms of it the servant, so with b_unm + b_mar of
        // Table 4.2 and the wake-ups b_disp + b_reply are about 0.49 ms if the servant burns all its 5 ms;
        // a wall-clock servant burns less when preempted, so the sum is fitted, not fixed. Both run on the
        // same thread before the reply is sent, so their split is not identifiable: b_reply = b_disp.
        return List.of(
                new Parameter("b_rec_ms", receiverSum / 2, 0.1, 0.05, receiverSum - 0.05, 0.001, "b_enqueue_ms", receiverSum, -1,
                        "half of the receiver's 0.89 ms (5.3.2)"),
                new Parameter("b_disp_ms", 0.245, 0.1, 0.02, 1.5, 0.001, "b_reply_ms", 0, 1,
                        "half of 0.49 ms, the dispatcher's CPU besides a 5 ms CPU servant (5.3.2); b_reply_ms equal"),
                new Parameter("receiver_phase2_ms", 0.0, 0.02, 0, 0.2, 0.001, null, 0, 0, "0: no 2nd phase"),
                new Parameter("monitor_wakeup_ms", 0.0, 0.02, 0, 0.3, 0.001, null, 0, 0, "0: free wake-ups"),
                new Parameter("timer_wakeup_ms", 0.0, 0.1, 0, 1.5, 0.005, null, 0, 0, "0: free wake-ups"),
                new Parameter("wakeup_per_thread_ms", 0.5 / 64, 0.002, 0, 0.03, 0.0001, null, 0, 0,
                        "4.5.2: +0.5 ms CPU per request from 2 to 64 clients, spread over 64 threads"),
                new Parameter("wakeup_per_thread_max_threads", 64, 12, 2, 128, 1, null, 0, 0,
                        "4.5.2: the growth is reported up to 64 clients"),
                new Parameter("monitor_retry_ms", 0.0, 0.05, 0, 0.5, 0.001, null, 0, 0, "0: no failed re-acquire"),
                new Parameter("monitor_reacquire_ms", 0.0, 0.02, 0, 0.3, 0.001, null, 0, 0, "0: no second wake-up"),
                new Parameter("network_request_ms", 0.25, 0.1, 0.01, 2, 0.005, null, 0, 0,
                        "half of a 0.5 ms round trip (a guess for 100 Mbit/s LAN and two TCP stacks)"),
                new Parameter("network_reply_ms", 0.25, 0.1, 0.01, 2, 0.005, null, 0, 0, "the other half of that round trip"),
                new Parameter("client_think_ms", 0.0, 0.2, 0, 3, 0.005, null, 0, 0, "0: no client processing"));
    }

    /**
     * The outcome of a fit.
     *
     * @param profile the base profile with the fitted values
     * @param values the fitted values by key (partners included)
     * @param objective the training objective at the fitted values
     * @param startObjective the training objective at the starting values
     * @param evaluations model evaluations (one evaluation simulates every table)
     */
    public record Result(CalibrationProfile profile, Map<String, Double> values, double objective, double startObjective,
            int evaluations) {}

    private final List<Parameter> parameters;
    private final int replications;
    private final int openRequests;
    private final int maxSweeps;
    private int evaluations;

    /**
     * A fitter.
     *
     * @param parameters the free parameters
     * @param replications replications per simulated row during the fit
     * @param openRequests requests per run of Tables 5.1-5.4 during the fit
     * @param maxSweeps at most this many coordinate sweeps
     */
    public ProfileFitter(List<Parameter> parameters, int replications, int openRequests, int maxSweeps) {
        if (parameters.isEmpty() || replications < 2 || openRequests < 1000 || maxSweeps < 1) {
            throw new IllegalArgumentException("fitter: need parameters, >= 2 replications, >= 1000 open requests, >= 1 sweep");
        }
        this.parameters = List.copyOf(parameters);
        this.replications = replications;
        this.openRequests = openRequests;
        this.maxSweeps = maxSweeps;
    }

    /** The default fit: {@link #defaultParameters()}, 3 replications, 6000 open requests, 8 sweeps. */
    public static ProfileFitter standard() {
        return new ProfileFitter(defaultParameters(), 3, 6000, 8);
    }

    /**
     * The training objective of a profile: the mean over the tables of Sonde's mean absolute
     * relative error on the training rows (runs with {@link #FIT_SEED}).
     */
    public double objective(CalibrationProfile p) {
        evaluations++;
        List<Validator.TableResult> res = new Validator(new Validator.Settings(p, replications, FIT_SEED, openRequests, 200, 45_000)).run();
        double sum = 0;
        for (Validator.TableResult r : res) {
            sum += r.training().sonde();
        }
        return sum / res.size();
    }

    /**
     * Fits the parameters, starting from their declared starting values in {@code base} (every other
     * value of {@code base} is kept). {@code log} receives one line per improvement and per sweep.
     */
    public Result fit(CalibrationProfile base, Consumer<String> log) {
        Map<String, Double> x = new LinkedHashMap<>();
        Map<String, Double> step = new LinkedHashMap<>();
        for (Parameter p : parameters) {
            x.put(p.key(), p.round(p.start()));
            step.put(p.key(), p.step());
        }
        double best = objective(apply(base, x));
        double start = best;
        log.accept(String.format(Locale.ROOT, "start: training objective %.4f", best));
        for (int sweep = 1; sweep <= maxSweeps; sweep++) {
            boolean moved = false;
            boolean refining = false;
            for (Parameter p : parameters) {
                double h = step.get(p.key());
                if (h < p.resolution()) {
                    continue;
                }
                refining = true;
                double here = x.get(p.key());
                double bestValue = here;
                for (double candidate : new double[] {here + h, here - h}) {
                    double v = p.round(candidate);
                    if (v == here || v == bestValue) {
                        continue;
                    }
                    Map<String, Double> trial = new LinkedHashMap<>(x);
                    trial.put(p.key(), v);
                    double f = objective(apply(base, trial));
                    if (f < best) {
                        best = f;
                        bestValue = v;
                    }
                }
                if (bestValue != here) {
                    x.put(p.key(), bestValue);
                    moved = true;
                    log.accept(String.format(Locale.ROOT, "sweep %d: %s = %s -> objective %.4f", sweep, p.key(), fmt(bestValue), best));
                } else {
                    step.put(p.key(), h / 2);
                }
            }
            log.accept(String.format(Locale.ROOT, "sweep %d done: objective %.4f after %d evaluations", sweep, best, evaluations));
            if (!moved && !refining) {
                break;
            }
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (Parameter p : parameters) {
            values.put(p.key(), x.get(p.key()));
            if (p.partner() != null) {
                values.put(p.partner(), p.partnerValue(x.get(p.key())));
            }
        }
        return new Result(apply(base, x), values, best, start, evaluations);
    }

    /**
     * Fits the parameters once per servant clock ({@code cpu}, {@code wall}: one clock for every
     * table) and keeps the clock whose fit has the lower training objective; then tries the other
     * option of each of {@link #CHOICES} at the fitted values and keeps it when it lowers the training
     * objective. Every discrete choice is made on the training rows too. {@code log} lines are
     * prefixed with the clock.
     */
    public Result fitWithClock(CalibrationProfile base, Consumer<String> log) {
        Result best = null;
        for (String clock : CLOCKS) {
            Result r = fit(base.with(CLOCK_KEY, clock), line -> log.accept(CLOCK_KEY + "=" + clock + ": " + line));
            if (best == null || r.objective() < best.objective()) {
                best = r;
            }
        }
        CalibrationProfile p = best.profile();
        double f = best.objective();
        log.accept(String.format(Locale.ROOT, "chosen: %s=%s (training objective %.4f)", CLOCK_KEY, p.text(CLOCK_KEY, "?"), f));
        for (Map.Entry<String, List<String>> c : CHOICES) {
            for (String option : c.getValue()) {
                if (option.equals(p.text(c.getKey(), null))) {
                    continue;
                }
                double g = objective(p.with(c.getKey(), option));
                log.accept(String.format(Locale.ROOT, "choice %s=%s: training objective %.4f (%s: %.4f)", c.getKey(), option, g,
                        p.text(c.getKey(), "?"), f));
                if (g < f) {
                    p = p.with(c.getKey(), option);
                    f = g;
                }
            }
        }
        return new Result(p, best.values(), f, best.startObjective(), evaluations);
    }

    /** Discrete choices tried at the fitted values, with their options. */
    static final List<Map.Entry<String, List<String>>> CHOICES = List.of(
            Map.entry("network_delay", List.of("exponential", "deterministic")),
            Map.entry("wakeup_per_thread_scope", List.of("all", "runnable")));

    /** What a profile written by {@link #properties} says it was fitted on. */
    public static final String FITTED_ON = "the training rows of Tables 5.1-5.7 only (sonde validate-model --fit, seed "
            + FIT_SEED + "); the held-out rows are out-of-sample";

    /** Profile key of the one servant clock. */
    static final String CLOCK_KEY = "servant_cpu_clock";

    private static final List<String> CLOCKS = List.of("cpu", "wall");

    /** {@code base} with the parameter values {@code x} and their partners. */
    CalibrationProfile apply(CalibrationProfile base, Map<String, Double> x) {
        CalibrationProfile p = base;
        for (Parameter par : parameters) {
            double v = x.get(par.key());
            p = p.with(par.key(), v);
            if (par.partner() != null) {
                p = p.with(par.partner(), par.partnerValue(v));
            }
        }
        return p;
    }

    /** The fitted values as {@code .properties} lines, with where each start came from. */
    public String properties(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "# fitted by sonde validate-model --fit on the training rows of Tables 5.1-5.7"
                + " (seed %d, %d replications, %d open requests): training objective %.4f (start %.4f), %d evaluations%n",
                FIT_SEED, replications, openRequests, r.objective(), r.startObjective(), r.evaluations()));
        for (Parameter p : parameters) {
            sb.append("# ").append(p.key()).append(": started at ").append(fmt(p.round(p.start()))).append(" (").append(p.why())
                    .append(')').append(System.lineSeparator());
        }
        sb.append(Validator.FITTED_ON_KEY).append('=').append(FITTED_ON).append(System.lineSeparator());
        for (String key : new String[] {CLOCK_KEY, "network_delay", "wakeup_per_thread_scope"}) {
            sb.append(key).append('=').append(r.profile().text(key, "?")).append(System.lineSeparator());
        }
        for (Map.Entry<String, Double> e : r.values().entrySet()) {
            sb.append(e.getKey()).append('=').append(fmt(e.getValue())).append(System.lineSeparator());
        }
        return sb.toString();
    }

    /** The parameters of this fitter, in order. */
    public List<Parameter> parameters() {
        return new ArrayList<>(parameters);
    }

    static String fmt(double v) {
        String s = String.format(Locale.ROOT, "%.6f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
