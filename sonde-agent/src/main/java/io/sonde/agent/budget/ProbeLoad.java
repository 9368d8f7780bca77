package io.sonde.agent.budget;

/**
 * What one probe (all overloads of one method name) cost in the last budget interval, and what
 * it told.
 *
 * @param name the probe name {@code <class>.<method>}
 * @param executions ENTERs in the interval
 * @param meanNanos mean inclusive duration of the executions that completed in the interval, or
 *     -1 when none did (a long-running method: it tells a lot)
 * @param meanDepth mean call depth of its executions (0 = trace root)
 * @param costNanos the agent's estimated cost of these executions (probe path and the writer
 *     thread's share)
 */
record ProbeLoad(String name, long executions, double meanNanos, double meanDepth, double costNanos) {

    /**
     * How much switching this probe off is worth: its cost, divided by how much it tells. A short
     * method tells little (its duration is close to the probe's own cost), a deep one less than a
     * shallow one (its callers' timings already cover it). Most frequent, shortest, deepest first.
     *
     * @param pairNanos the calibrated cost of one enter+exit pair, the scale for "short"
     */
    double score(double pairNanos) {
        double duration = meanNanos < 0 ? 1e12 : meanNanos;
        return costNanos * (1 + meanDepth) / (1 + duration / pairNanos);
    }
}
