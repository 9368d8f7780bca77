package io.sonde.bench.overhead.framework;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One JVM run's framework part: JVM options (the {@code -javaagent} and its configuration),
 * extra environment variables, and the counting of what was written once the JVM has exited.
 * {@link #close()} stops any receiver started for the run.
 */
public interface RunSetup extends AutoCloseable {

    /** JVM options to add before the main class. */
    List<String> jvmOptions();

    /** Environment variables to add. */
    default Map<String, String> environment() {
        return Map.of();
    }

    /**
     * True when the application must wait, after entering {@code main}, until
     * {@link #started(long)} has returned (e.g. to switch probes off through JMX first).
     */
    default boolean holdsStart() {
        return false;
    }

    /** Called once the application JVM with process id {@code pid} runs (before it is released when {@link #holdsStart()}). */
    default void started(long pid) throws IOException {}

    /**
     * A problem the framework reported in the application's output (e.g. rejected agent
     * options, after which it runs unmonitored), or null. Such a run is counted as failed.
     */
    default String problemIn(String log) {
        return null;
    }

    /** Counts the records written, after the application JVM has exited. */
    RecordCount countRecords() throws IOException;

    @Override
    default void close() throws IOException {}

    /** A setup with only JVM options and a fixed count answer. */
    static RunSetup of(List<String> jvmOptions, Map<String, String> environment, RecordCount count) {
        return new RunSetup() {
            @Override
            public List<String> jvmOptions() {
                return jvmOptions;
            }

            @Override
            public Map<String, String> environment() {
                return environment;
            }

            @Override
            public RecordCount countRecords() {
                return count;
            }
        };
    }
}
