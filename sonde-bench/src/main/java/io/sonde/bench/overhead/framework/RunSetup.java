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
