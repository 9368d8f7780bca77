package io.sonde.analysis.progress;

/** Told how far a long read has got. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (done, total) -> {};

    /**
     * @param bytesDone bytes read so far
     * @param bytesTotal bytes to read in all, or -1 if unknown
     */
    void progress(long bytesDone, long bytesTotal);

    /** The read is over (a progress bar ends its line). */
    default void done() {}
}
