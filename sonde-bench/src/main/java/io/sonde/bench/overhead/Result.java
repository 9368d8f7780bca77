package io.sonde.bench.overhead;

import java.util.List;

/**
 * One line of {@code overhead.json}: a framework in a phase, with a thread count, on a JDK.
 * Timing fields are null when no run of the configuration succeeded or the phase is not
 * supported by the framework ({@code reason} says why).
 *
 * @param framework        sonde, kieker or otel
 * @param version          framework version
 * @param jdk              JDK version the runs used
 * @param phase            phase label
 * @param threads          application threads
 * @param calls            calls per thread and run (half warm-up)
 * @param runs             JVM runs that succeeded
 * @param depth            monitored executions per call
 * @param meanUs           mean duration of a call, us
 * @param medianUs         median, us
 * @param minUs            min, us
 * @param maxUs            max, us
 * @param overheadNsPerExecution (mean - mean of no-instrumentation) / depth, in ns
 * @param overheadMedianNsPerExecution (median - median of no-instrumentation) / depth, in ns: robust against
 *                         the outliers of a busy machine
 * @param recordsExpected  records the phase should write over all runs (calls x threads x depth x runs), 0 for phases that write none
 * @param recordsWritten   records counted in the framework's output, summed over runs, or null
 * @param reason           why a field is null, or how records were counted; null when nothing to say
 * @param startupMs        mean JVM launch to main, ms
 * @param heapUsedMb       mean heap used after a full GC at the end of a run, MiB
 * @param agentHeapMb      heapUsedMb minus that of no-instrumentation, MiB
 * @param threadCount      live threads at the end of a run (max over runs)
 * @param agentThreads     names of live threads that the no-instrumentation run does not have
 * @param errors           failed runs, each with its message
 */
public record Result(String framework, String version, String jdk, String phase, int threads, long calls, int runs,
        int depth, Double meanUs, Double medianUs, Double minUs, Double maxUs, Double overheadNsPerExecution,
        Double overheadMedianNsPerExecution, Long recordsExpected, Long recordsWritten, String reason, Double startupMs, Double heapUsedMb,
        Double agentHeapMb, Integer threadCount, List<String> agentThreads, List<String> errors) {}
