package io.sonde.bench.real;

import java.util.List;

/**
 * One configuration (workload x framework) over its runs: medians of the runs' figures.
 *
 * @param workload      {@code h2} or {@code http}
 * @param framework     {@code none}, {@code sonde} or {@code kieker}
 * @param version       the framework's version (empty for none)
 * @param library       the library benchmarked, {@code group:artifact:version}
 * @param size          operations or requests per run
 * @param jdk           the JDK's version
 * @param runs          runs made
 * @param startupS      median JVM launch to main, s
 * @param readyS        median JVM launch to the first measured operation, s
 * @param weaveS        weaving: the agent's own figure if it reports one, else {@code readyS}
 *                      minus the no-agent run's {@code readyS}; null for none
 * @param weaveSource   {@code agent} or {@code ready-difference}, null for none
 * @param weaveClasses  classes instrumented (Sonde's MBean), or null
 * @param workloadS     median wall time of the workload, s
 * @param lastHalfS     median wall time of the workload's last half of operations, s: the
 *                      settled state, after weaving, JIT warm-up and the budget's steps
 * @param cpuS          median process CPU time during the workload, s
 * @param totalCpuS     median process CPU time from start to the end of the workload, s
 * @param executions    median monitored executions recorded
 * @param bytes         median bytes of monitoring output
 * @param dropped       largest number of records dropped in a run
 * @param correct       every run completed with the no-agent run's digest and no wrong answer
 * @param cut           runs killed at the time or byte limit
 * @param failedRuns    runs that failed, were cut, or whose agent rejected its options
 * @param workloadRuns  each run's workload wall time, s
 * @param errors        problems and notes of the runs
 * @param agentOptions  the options the Sonde agent ran with besides include and the writer's
 *                      ({@code --agent-options}, and {@code budget.state} with {@code --budget-state});
 *                      null for the others
 */
record RealResult(String workload, String framework, String version, String library, long size, String jdk, int runs,
        Double startupS, Double readyS, Double weaveS, String weaveSource, Integer weaveClasses, Double workloadS,
        Double lastHalfS, Double cpuS, Double totalCpuS, Long executions, Long bytes, Long dropped, boolean correct, int cut,
        int failedRuns, List<Double> workloadRuns, List<String> errors, String agentOptions) {}
