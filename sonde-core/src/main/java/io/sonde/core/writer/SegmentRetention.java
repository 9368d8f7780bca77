package io.sonde.core.writer;

import io.sonde.core.log.SondeLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Bounds the closed segments of one agent in the file writer's folder ({@code file.maxsize},
 * {@code file.maxage}), as JFR bounds its repository: the oldest segments are deleted whole, each
 * deletion counted and logged. The segment being written is never among them (it is not closed).
 * Used by the file writer's thread only.
 *
 * <p>Readers see what was deleted: the first remaining segment then has an index above 0 and its
 * first frame a sequence number above 0 (a run that starts afresh starts at 0), which the analysis
 * reports as earlier segments deleted.
 */
final class SegmentRetention {
    /** A closed segment: its file, size and the wall-clock time of its last write. */
    private record Closed(int index, Path file, long bytes, long lastWriteMillis) {}

    private final long maxBytes;
    private final long maxAgeMillis;
    private final LongSupplier clockMillis;
    private final ArrayDeque<Closed> closed = new ArrayDeque<>();
    private long closedBytes;
    private long deletedSegments;
    private long deletedBytes;

    /**
     * @param maxBytes bound of the closed segments plus the current one, 0 = none
     * @param maxAgeMillis closed segments whose last write is older are deleted, 0 = none
     * @param clockMillis wall-clock milliseconds (tests inject one)
     */
    SegmentRetention(long maxBytes, long maxAgeMillis, LongSupplier clockMillis) {
        if (maxBytes < 0 || maxAgeMillis < 0) {
            throw new IllegalArgumentException("file.maxsize and file.maxage must not be negative: " + maxBytes
                    + ", " + maxAgeMillis);
        }
        this.maxBytes = maxBytes;
        this.maxAgeMillis = maxAgeMillis;
        this.clockMillis = clockMillis;
    }

    /** True when a bound is set (otherwise nothing is tracked or deleted). */
    boolean bounded() {
        return maxBytes > 0 || maxAgeMillis > 0;
    }

    /** A segment of this agent found in the folder at start (an earlier run's); in index order. */
    void existing(int index, Path file) throws IOException {
        if (!bounded()) return;
        add(new Closed(index, file, Files.size(file), Files.getLastModifiedTime(file).toMillis()));
    }

    /** A segment this writer has just closed, with the bytes written to it. */
    void closed(int index, Path file, long bytes) {
        if (!bounded()) return;
        add(new Closed(index, file, bytes, clockMillis.getAsLong()));
    }

    private void add(Closed c) {
        closed.addLast(c);
        closedBytes += c.bytes();
    }

    /**
     * Deletes the oldest closed segments while the folder exceeds {@code file.maxsize} (closed
     * segments plus {@code currentBytes}, the segment being written) and while the oldest is older
     * than {@code file.maxage}.
     */
    void enforce(long currentBytes) {
        if (!bounded()) return;
        long now = clockMillis.getAsLong();
        while (!closed.isEmpty()) {
            Closed oldest = closed.peekFirst();
            String reason;
            if (maxBytes > 0 && closedBytes + currentBytes > maxBytes) {
                reason = "file.maxsize=" + maxBytes + " bytes: this agent's segments held " + (closedBytes + currentBytes);
            } else if (maxAgeMillis > 0 && now - oldest.lastWriteMillis() > maxAgeMillis) {
                reason = "file.maxage=" + maxAgeMillis + " ms: last written " + (now - oldest.lastWriteMillis()) + " ms ago";
            } else {
                return;
            }
            closed.removeFirst();
            closedBytes -= oldest.bytes();
            delete(oldest, reason);
        }
    }

    private void delete(Closed c, String reason) {
        try {
            Files.deleteIfExists(c.file());
        } catch (IOException e) {
            // forgotten all the same: retrying every frame would not help, and the bound stays an estimate
            SondeLog.warn("file.retention", "could not delete " + c.file() + " (" + reason + "): " + e.getMessage());
            return;
        }
        deletedSegments++;
        deletedBytes += c.bytes();
        SondeLog.warn("file.retention", "deleted segment " + c.file().getFileName() + " (" + c.bytes() + " bytes; "
                + reason + "); " + deletedSegments + " segment(s), " + deletedBytes + " bytes deleted so far");
    }

    /** Segments deleted so far. */
    long deletedSegments() {
        return deletedSegments;
    }

    /** Bytes of the segments deleted so far. */
    long deletedBytes() {
        return deletedBytes;
    }
}
