package io.sonde.bench.overhead.framework;

import java.nio.file.Path;

/**
 * What a framework needs to know to set up one JVM run.
 *
 * @param runDir     an empty directory of this run, for the framework's output files
 * @param threads    application threads
 * @param calls      calls per thread
 * @param depth      monitored executions per call
 */
public record RunContext(Path runDir, int threads, long calls, int depth) {

    /** Monitored executions the application makes in this run (warm-up included). */
    public long expectedExecutions() {
        return (long) threads * calls * depth;
    }
}
