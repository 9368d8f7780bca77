package io.sonde.bench.packing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The confirmation rounds of one source and the goals' verdicts computed from them. The best static
 * degree is chosen on the sweep; judged on the same runs, it would be the maximum of a dozen noisy
 * measurements (the winner's curse: a lucky run both selects it and inflates it), so adaptive's ratio
 * against it would be biased low. Here it is measured again, in fresh runs it was not chosen on,
 * against {@code adaptive}, the runner-up and no packing: each round runs every one of them once, in
 * an order shuffled per round with a fixed seed, each with the same measured duration, and every
 * ratio is taken within a round (paired) before its median over the rounds is reported.
 *
 * <p>Goals (issue 12): {@code adaptive} at least {@value #GOAL_OF_BEST} of the best static degree's
 * throughput, judged on the median of the paired ratios; and at least {@value #GOAL_OVER_NONE} x the
 * throughput of no packing where packing can give it, that is where the best static degree itself
 * reaches it (the paper saw 3 x only there).
 */
final class Confirmation {
    /** adaptive / best static degree, median over the rounds. */
    static final double GOAL_OF_BEST = 0.95;
    /** adaptive / no packing, median over the rounds (where best / no packing reaches it). */
    static final double GOAL_OVER_NONE = 3.0;
    static final String NONE = "static:1";
    static final String ADAPTIVE = "adaptive";

    final DegreeGroup best;
    /** The best group other than {@link #best} on the sweep; null if the sweep had only one. */
    final DegreeGroup runnerUp;
    /** The configurations measured, in the order of the report: best, runner-up, no packing, adaptive. */
    final List<String> configurations;
    /** Per round: the order the configurations ran in. */
    final List<List<String>> orders;
    /** Per configuration: its run of each round. */
    final Map<String, List<PackingBenchmark.Run>> runs;

    private Confirmation(DegreeGroup best, DegreeGroup runnerUp, List<String> configurations, List<List<String>> orders,
            Map<String, List<PackingBenchmark.Run>> runs) {
        this.best = best;
        this.runnerUp = runnerUp;
        this.configurations = configurations;
        this.orders = orders;
        this.runs = runs;
    }

    /**
     * Runs {@code rounds} rounds of best, runner-up, no packing and adaptive for {@code source}, each
     * round in an order drawn from {@code order}; static configurations run {@code warm} seconds
     * unmeasured, adaptive {@code adaptiveWarm} (time to converge), then each is measured {@code seconds}.
     */
    static Confirmation run(Source source, DegreeGroup best, DegreeGroup runnerUp, int rounds, double warm, double adaptiveWarm,
            double seconds, Runner runner, Random order) throws Exception {
        if (rounds < 1) throw new IllegalArgumentException("confirmation rounds must be at least 1, got " + rounds);
        List<String> configurations = new ArrayList<>();
        configurations.add(best.representative());
        if (runnerUp != null) configurations.add(runnerUp.representative());
        if (!configurations.contains(NONE)) configurations.add(NONE);
        configurations.add(ADAPTIVE);
        Map<String, List<PackingBenchmark.Run>> runs = new HashMap<>();
        for (String c : configurations) runs.put(c, new ArrayList<>());
        List<List<String>> orders = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<String> shuffled = new ArrayList<>(configurations);
            Collections.shuffle(shuffled, order);
            orders.add(List.copyOf(shuffled));
            for (String c : shuffled) {
                runs.get(c).add(runner.run(source, c, c.equals(ADAPTIVE) ? adaptiveWarm : warm, seconds));
            }
        }
        return new Confirmation(best, runnerUp, List.copyOf(configurations), List.copyOf(orders), runs);
    }

    int rounds() {
        return orders.size();
    }

    /** {@code numerator}'s events/s over {@code denominator}'s, per round. */
    PairedRatio ratio(String numerator, String denominator) {
        List<PackingBenchmark.Run> a = runs.get(numerator);
        List<PackingBenchmark.Run> b = runs.get(denominator);
        if (a == null || b == null) throw new IllegalArgumentException("not measured in the confirmation rounds: " + (a == null ? numerator : denominator));
        double[] r = new double[a.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = a.get(i).result().eventsPerSecond() / Math.max(1e-9, b.get(i).result().eventsPerSecond());
        }
        return new PairedRatio(r);
    }

    /** adaptive / the best static degree, per round. */
    PairedRatio adaptiveOfBest() {
        return ratio(ADAPTIVE, best.representative());
    }

    /** True if {@link #adaptiveOfBest()}'s median reaches {@link #GOAL_OF_BEST}. */
    boolean meetsGoalOfBest() {
        return adaptiveOfBest().median() >= GOAL_OF_BEST;
    }

    /**
     * The verdict on ≥ 3 x no packing: "met", "NOT met" or "not applicable" (the best static degree
     * itself stays below 3 x).
     */
    String goalOverNone() {
        if (ratio(best.representative(), NONE).median() < GOAL_OVER_NONE) return "not applicable";
        return ratio(ADAPTIVE, NONE).median() >= GOAL_OVER_NONE ? "met" : "NOT met";
    }

    /**
     * The table row of {@code configuration}: its median round with the range over the rounds (and
     * for adaptive the median time to come near the best group's degrees).
     */
    PackingBenchmark.Result row(String configuration) {
        int[] near = configuration.equals(ADAPTIVE) ? PackingBenchmark.convergenceRange(best) : new int[] {-1, -1};
        PackingBenchmark.Result r = PackingBenchmark.median(runs.get(configuration), near[0], near[1]);
        if (configuration.equals(best.representative())) return r.withPacking(best.label());
        if (runnerUp != null && configuration.equals(runnerUp.representative())) return r.withPacking(runnerUp.label());
        return r;
    }

    /** The verdict lines under the confirmation table. */
    String verdict() {
        String n = System.lineSeparator();
        PairedRatio ofBest = adaptiveOfBest();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "  adaptive / %s (best static on the sweep), paired per round: median %s (min %s, max %s)",
                best.label(), percent(ofBest.median()), percent(ofBest.min()), percent(ofBest.max())));
        if (runnerUp != null) {
            PairedRatio margin = ratio(best.representative(), runnerUp.representative());
            PairedRatio ofRunnerUp = ratio(ADAPTIVE, runnerUp.representative());
            b.append(n).append(String.format(Locale.ROOT, "  %s / %s (runner-up): median %s (min %s, max %s); adaptive / %s: median %s",
                    best.label(), runnerUp.label(), percent(margin.median()), percent(margin.min()), percent(margin.max()),
                    runnerUp.label(), percent(ofRunnerUp.median())));
        }
        PairedRatio overNone = ratio(ADAPTIVE, NONE);
        PairedRatio bestOverNone = ratio(best.representative(), NONE);
        b.append(n).append(String.format(Locale.ROOT, "  adaptive / %s (no packing): median %.1f x (min %.1f, max %.1f); %s / %s: median %.1f x",
                NONE, overNone.median(), overNone.min(), overNone.max(), best.label(), NONE, bestOverNone.median()));
        b.append(n).append(String.format(Locale.ROOT, "  goal adaptive >= %.0f %% of the best static degree (median of %d paired rounds): %s",
                100 * GOAL_OF_BEST, rounds(), meetsGoalOfBest() ? "met" : "NOT met"));
        String overNoneVerdict = goalOverNone();
        b.append(n).append(String.format(Locale.ROOT, "  goal adaptive >= %.0f x no packing: %s", GOAL_OVER_NONE, overNoneVerdict.equals("not applicable")
                ? String.format(Locale.ROOT, "not applicable (the best static degree reaches %.1f x)", bestOverNone.median()) : overNoneVerdict));
        return b.toString();
    }

    private static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.0f %%", 100 * ratio);
    }
}
