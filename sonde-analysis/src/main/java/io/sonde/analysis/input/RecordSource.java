package io.sonde.analysis.input;

import io.sonde.analysis.progress.ProgressListener;
import java.util.List;

/**
 * Where records come from: one or more logs, read once, in order, into a {@link RecordHandler}.
 */
public interface RecordSource {
    /**
     * The wall-clock span of the whole input, found without decoding records (the time windows
     * of the analysis, like {@code --skip-cooldown}, are relative to it), or null if unknown.
     */
    TimeRange timeRange();

    /** Total bytes to read (for progress), or -1 if unknown. */
    long totalBytes();

    /** Human-readable names of the inputs, e.g. file paths. */
    List<String> names();

    /**
     * Delivers every readable record to {@code handler}. A source that cannot be read to its
     * end (corrupt or truncated) is reported as a problem, its readable part having been
     * delivered, and reading goes on with the next source.
     *
     * @return the errors and notices met, empty when everything was read cleanly
     */
    List<InputProblem> read(RecordHandler handler, ProgressListener progress);
}
