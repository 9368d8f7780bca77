package io.sonde.bench.overhead.framework;

import io.sonde.bench.overhead.Phase;
import java.io.IOException;

/**
 * A monitoring framework under test: how to load it into the benchmark JVM for each phase, and
 * how to count what it wrote. Phase {@link Phase#NO_INSTRUMENTATION} runs without any framework
 * and is never asked of an implementation.
 */
public interface Framework {

    /** Name in options and output: {@code sonde}, {@code kieker} or {@code otel}. */
    String name();

    /** The framework's version as reported in the output. */
    String version();

    /**
     * Fetches or locates what the framework needs (agent jar); called once before any run.
     *
     * @throws IOException with a message saying what could not be found or fetched
     */
    void prepare() throws IOException;

    /** Why this framework cannot run {@code phase}, or null when it can. */
    default String unsupported(Phase phase) {
        return null;
    }

    /**
     * Prepares one JVM run of {@code phase}: agent options, environment, and any receiver the
     * phase needs, which must be listening when this returns.
     */
    RunSetup setup(Phase phase, RunContext context) throws IOException;
}
