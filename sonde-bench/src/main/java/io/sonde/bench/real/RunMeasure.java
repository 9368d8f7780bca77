package io.sonde.bench.real;

import java.util.List;

/**
 * What one JVM run of one configuration measured. Times in seconds; null where the run did not
 * get that far (cut, failed) or the framework does not say.
 *
 * @param startupS      JVM launch to the first line of {@code main}
 * @param readyS        JVM launch to the end of the workload's preparation (the first measured operation)
 * @param workloadS     wall time of the bounded workload
 * @param lastHalfS     wall time of the workload's last half of operations (the settled state)
 * @param cpuS          process CPU time (all threads) during the workload
 * @param totalCpuS     process CPU time from the start to the end of the workload
 * @param executions    monitored executions recorded in the output
 * @param bytes         bytes of monitoring output
 * @param dropped       records the framework reports as dropped
 * @param weaveClasses  classes the agent instrumented (Sonde's MBean), or null
 * @param agentWeaveS   weaving time the agent reports itself, or null when it reports none
 * @param loadedClasses classes the JVM loaded by the end of the workload
 * @param digest        the workload's result digest
 * @param failures      answers the workload itself found wrong
 * @param cut           why the run was killed, or null
 * @param failed        the run did not complete as a valid measurement: it failed, was cut, or
 *                      its agent rejected its options (and ran unmonitored)
 * @param errors        what went wrong or is worth knowing (notes of the counting, agent problems)
 */
record RunMeasure(Double startupS, Double readyS, Double workloadS, Double lastHalfS, Double cpuS, Double totalCpuS, Long executions,
        long bytes, Long dropped, Integer weaveClasses, Double agentWeaveS, Long loadedClasses, String digest,
        long failures, String cut, boolean failed, List<String> errors) {}
