package io.sonde.analysis.budget;

/**
 * A probe the java agent's overhead budget switched off, from its {@code sonde.budget.switch}
 * event: after this moment the method has no records, by decision, not by loss.
 *
 * @param agent the agent (index, as in the analysis' agent list)
 * @param wallNanos when, wall clock ns since the epoch
 * @param probe the probe name {@code <class>.<method>}
 * @param reason the budget's reason in words
 * @param executions the probe's executions in the budget interval that decided
 * @param share its share of the estimated cost of all executions, percent
 * @param meanNanos its mean inclusive duration in that interval (-1: none completed)
 * @param depth its mean call depth
 * @param overhead the estimated cost of the executions, percent of the application's CPU time
 */
public record BudgetSwitch(int agent, long wallNanos, String probe, String reason, long executions, double share,
        long meanNanos, double depth, double overhead) {}
