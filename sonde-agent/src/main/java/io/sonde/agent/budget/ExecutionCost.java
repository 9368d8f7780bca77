package io.sonde.agent.budget;

import java.util.Locale;

/**
 * What one monitored execution costs the application's threads, measured in the running program
 * rather than assumed: a pure function of the figures the budget thread reads, so it is tested
 * with scripted inputs.
 *
 * <p>The prior is the calibrated enter+exit pair ({@link PairCost}). It leaves out what a woven
 * method costs around the probe call: the inlining a tiny method loses, the memory traffic of its
 * records, the JIT recompiling after each re-transformation. Those show only in the program
 * itself, so each budget step that takes probes out of the code is used as a natural experiment:
 * the probes that stayed on are a measure of the application's progress (same workload mix, so
 * the same number of their executions per unit of work), and the application's CPU time per
 * execution of them falls when the switched probes are gone. With {@code A0, S0, R0} the
 * application's CPU time, the stayed probes' executions and the removed probes' executions in the
 * interval before the step, and {@code A1, S1} the CPU time and the same stayed probes' executions
 * in the first judged interval after it, the application's CPU per unit of work fell from {@code
 * A0/S0} to {@code A1/S1}, and the real cost of one removed execution is
 *
 * <pre>    u = (A0/S0 - A1/S1) * S0 / R0 = (A0 - A1 * S0 / S1) / R0</pre>
 *
 * <p>The judged intervals after the step are summed until the stayed probes made {@link
 * #MIN_EXECUTIONS} executions (a new step before that drops the experiment). An experiment counts
 * only when each count has at least {@link #MIN_EXECUTIONS} executions and
 * the step's predicted saving at the prior ({@code R0 * prior / A0}) is at least {@link
 * #MIN_PREDICTED_SAVING} of the CPU time: a smaller change drowns in the interval-to-interval
 * variation of the workload's mix. The estimate is the mean of the counted experiments weighted
 * by their removed executions, never below the prior (the probe path surely costs its calibrated
 * pair; a negative or tiny result is noise or a program that sped up for other reasons).
 *
 * <p>A program still warming up gets faster from one interval to the next by itself, which this
 * would put on the removed probes: when the interval before the step had a judged interval just
 * before it (all probes on in both), the program's own speed-up between the two, per unit of time,
 * is extrapolated over the gap to the intervals after the step and taken out ({@link
 * Before#drift}; a slow-down is not extrapolated). Biases that remain, both towards a stricter
 * budget: a speed-up that is not steady, and the removed
 * probes (tiny, deep methods that lose their inlining) cost more per execution than the larger
 * ones that stay, to which the same cost is applied.
 */
final class ExecutionCost {
    /** Executions each count of an experiment needs (the same floor as a writer sample). */
    static final long MIN_EXECUTIONS = 10_000;
    /**
     * The smallest saving (fraction of the application's CPU time) an experiment must predict at
     * the prior. Not fitted: a floor against steps whose effect drowns in the program's own drift
     * (on H2, on a loaded machine, the executions per millisecond of application CPU moved by
     * 10-40 % between successive step-free intervals while it warmed up: the smaller steps are
     * kept out, the drift that remains biases towards a stricter budget). Being a fraction at the
     * prior, it still lets through a true cost of up to ten times the prior.
     */
    static final double MIN_PREDICTED_SAVING = 0.10;

    private final double priorNanos;
    private double weightedNanos;
    private double weight;
    private int experiments;
    /** Experiments of earlier runs, from the state file ({@link #restore}). */
    private int restoredExperiments;
    private double lastNanos = Double.NaN;

    /** @param priorNanos the calibrated pair: the estimate until an experiment, and its floor */
    ExecutionCost(double priorNanos) {
        if (!(priorNanos > 0)) throw new IllegalArgumentException("ExecutionCost: prior " + priorNanos + " ns is not positive");
        this.priorNanos = priorNanos;
    }

    /** Nanoseconds one execution costs the application's threads: measured if an experiment counted, else the prior. */
    double nanos() {
        return weight == 0 ? priorNanos : Math.max(priorNanos, weightedNanos / weight);
    }

    /** Experiments that counted in this run. */
    int experiments() {
        return experiments;
    }

    /**
     * Starts from what earlier runs measured ({@code budget.state}), in multiples of their pair
     * and so here of this run's prior: their mean counts as experiments with their weight, and
     * this run's experiments join it. Null: nothing.
     */
    void restore(BudgetState.Measured earlier) {
        if (earlier == null) return;
        weightedNanos += Math.max(1, earlier.pairs()) * priorNanos * earlier.weight();
        weight += earlier.weight();
        restoredExperiments += earlier.experiments();
    }

    /** What the experiments, earlier runs' included, measured, in multiples of the prior; null when none counted. */
    BudgetState.Measured measured() {
        return weight == 0 ? null : new BudgetState.Measured(weightedNanos / weight / priorNanos, weight, experiments + restoredExperiments);
    }

    /** The last counted experiment's raw result (ns per removed execution, may be below the prior), NaN if none. */
    double lastNanos() {
        return lastNanos;
    }

    /**
     * The figures of the interval judged before a step that removed probes.
     *
     * @param cpuNanos the application's CPU time in the interval (probe path included)
     * @param stayed executions of the probes that stayed on
     * @param removed executions of the probes the step removed
     * @param earlierCpuPerStayed the application's CPU time per execution of the same stayed
     *     probes in the judged interval just before (all probes on in both), NaN when there is none
     * @param gapNanos the time between the two intervals' midpoints
     */
    record Before(long cpuNanos, long stayed, long removed, double earlierCpuPerStayed, long gapNanos) {
        /** Without an earlier interval: no drift correction. */
        Before(long cpuNanos, long stayed, long removed) {
            this(cpuNanos, stayed, removed, Double.NaN, 0);
        }

        /**
         * How much faster the program got by itself over {@code afterGapNanos} (a factor <= 1 on its
         * CPU time per stayed execution), extrapolated from the two intervals before the step at
         * the same rate per unit of time; 1 without an earlier interval or when it got slower
         * (a slower program is more likely the machine's load than the program: no correction,
         * which errs towards a stricter budget).
         */
        double drift(long afterGapNanos) {
            if (!(earlierCpuPerStayed > 0) || gapNanos <= 0 || afterGapNanos <= 0 || stayed <= 0) return 1;
            double perInterval = (cpuNanos / (double) stayed) / earlierCpuPerStayed;
            if (!(perInterval < 1)) return 1;
            return Math.pow(perInterval, afterGapNanos / (double) gapNanos);
        }
    }

    /**
     * True when a step with these figures can measure the cost: enough executions removed and
     * stayed, and a predicted saving above the interval-to-interval variation. The budget keeps
     * no experiment otherwise.
     */
    boolean measurable(Before before) {
        return before.stayed() >= MIN_EXECUTIONS && before.removed() >= MIN_EXECUTIONS && before.cpuNanos() > 0
                && before.removed() * priorNanos >= MIN_PREDICTED_SAVING * before.cpuNanos();
    }

    /**
     * Adds the experiment of one step: {@code before}, then the judged intervals after the step
     * (summed until the stayed probes made {@link #MIN_EXECUTIONS}) with the application's CPU time
     * {@code cpuAfter} and {@code stayedAfter} executions of the same stayed probes. Returns the
     * measured cost per removed execution, or NaN when the experiment does not count (then the
     * estimate is unchanged).
     */
    double observe(Before before, long cpuAfter, long stayedAfter) {
        return observe(before, cpuAfter, stayedAfter, 0);
    }

    /**
     * As {@link #observe(Before, long, long)}, with the program's own drift taken out: what the
     * CPU time per stayed execution would have become without the step, {@code A0/S0 x}
     * {@link Before#drift}, over {@code afterGapNanos} from the interval before the step to the
     * intervals after it (midpoint to midpoint).
     */
    double observe(Before before, long cpuAfter, long stayedAfter, long afterGapNanos) {
        if (!measurable(before) || stayedAfter < MIN_EXECUTIONS || cpuAfter <= 0) return Double.NaN;
        double withoutStep = before.cpuNanos() * before.drift(afterGapNanos);
        double u = (withoutStep - cpuAfter * (before.stayed() / (double) stayedAfter)) / before.removed();
        lastNanos = u;
        experiments++;
        weightedNanos += Math.max(priorNanos, u) * before.removed();
        weight += before.removed();
        return u;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.1f ns (prior %.1f, %d experiment(s)%s)", nanos(), priorNanos, experiments,
                restoredExperiments == 0 ? "" : ", " + restoredExperiments + " of earlier runs from budget.state");
    }
}
