package io.sonde.agent.it;

import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * What one agent's log under a folder holds, counted in one streaming pass with the format's
 * reader (for runs with millions of records, where {@link Recorded} would keep them all).
 */
final class Archived {
    /** ENTER and EXIT records (the fault tests' only data records). */
    final long calls;
    /** Data records of any type. */
    final long dataRecords;
    /** Threads with at least one data record. */
    final int threads;
    /** Frames missing by sequence number (lost in flight on TCP). */
    final long missingFrames;
    /** Segment files of the log. */
    final int segments;
    /** Null when the stream has no trailer. */
    final Trailer trailer;
    final ReadEnd end;

    private Archived(long calls, long dataRecords, int threads, long missingFrames, int segments, Trailer trailer, ReadEnd end) {
        this.calls = calls;
        this.dataRecords = dataRecords;
        this.threads = threads;
        this.missingFrames = missingFrames;
        this.segments = segments;
        this.trailer = trailer;
        this.end = end;
    }

    /** Reads the single agent log under {@code dir}. */
    static Archived read(Path dir) throws IOException {
        java.util.List<AgentLog> logs = SondeLogs.scan(dir);
        if (logs.size() != 1) {
            throw new AssertionError("expected one agent log under " + dir + ", found " + logs);
        }
        long calls = 0;
        long data = 0;
        Set<Long> threads = new HashSet<>();
        try (SondeReader r = logs.get(0).open()) {
            while (r.next()) {
                byte t = r.type();
                if (!Format.isDataRecord(t)) continue;
                data++;
                if (t == Format.ENTER || t == Format.EXIT) calls++;
                threads.add(r.threadId());
            }
            return new Archived(calls, data, threads.size(), r.missingFrames(), logs.get(0).segments().size(), r.trailer(),
                    r.end());
        }
    }

    @Override
    public String toString() {
        return "records " + dataRecords + " (enter/exit " + calls + ") of " + threads + " thread(s) in " + segments
                + " segment(s), missing frames " + missingFrames + ", trailer " + trailer + ", end " + end;
    }
}
