package io.sonde.bench.overhead.sonde;

import io.sonde.bench.overhead.framework.RecordCount;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts the execution records of the benchmarked method in Sonde output (file writer segments, or
 * the receiver's archive) with the format reader: one execution = one exit record (plain, CPU or
 * exception variant) of a probe whose name contains the marker. Whatever else the stream says
 * (incomplete end, gaps, drops in the trailer) goes into the count's remark.
 */
public final class SondeRecordCounter {

    private SondeRecordCounter() {}

    /**
     * What the Sonde output under a folder holds.
     *
     * @param executions exit records of matching probes; null when no stream could be read at all
     * @param dropped    records the writers' trailers report as dropped
     * @param streams    streams read
     * @param remarks    whatever else the streams say (incomplete end, gaps, drops, read errors)
     */
    public record Tally(Long executions, long dropped, int streams, List<String> remarks) {

        /** The remarks in one line, or null when there are none. */
        public String remark() {
            return remarks.isEmpty() ? null : String.join("; ", remarks);
        }
    }

    /** Counts under {@code dir}; a missing or unreadable stream is a count of null with the reason. */
    public static RecordCount count(Path dir, String probeMarker) {
        Tally tally = tally(dir, probeMarker);
        if (tally.executions() == null) {
            return RecordCount.unknown(tally.remark());
        }
        return new RecordCount(tally.executions(), tally.remark());
    }

    /**
     * Reads every stream under {@code dir}, counting the exit records of probes whose name contains
     * {@code probeMarker} (every probe for {@code ""}) and the drops their trailers report.
     */
    public static Tally tally(Path dir, String probeMarker) {
        List<AgentLog> logs;
        try {
            logs = SondeLogs.scan(dir);
        } catch (IOException e) {
            return new Tally(null, 0, 0, List.of("cannot read Sonde output: " + e.getMessage()));
        }
        if (logs.isEmpty()) {
            return new Tally(0L, 0, 0, List.of("no Sonde stream found under " + dir));
        }
        long executions = 0;
        long dropped = 0;
        long gaps = 0;
        List<String> remarks = new ArrayList<>();
        for (AgentLog log : logs) {
            try (SondeReader reader = log.open()) {
                try {
                    while (reader.next()) {
                        byte type = reader.type();
                        if (type == Format.GAP) {
                            gaps++;
                        } else if ((type == Format.EXIT || type == Format.EXIT_CPU || type == Format.EXIT_EXCEPTION
                                || type == Format.EXIT_EXCEPTION_CPU) && reader.probeName().contains(probeMarker)) {
                            executions++;
                        }
                    }
                } catch (IOException e) {
                    remarks.add("read error: " + e.getMessage());
                }
                ReadEnd end = reader.end();
                if (end != null && end.kind() != ReadEnd.Kind.COMPLETE) {
                    remarks.add("stream " + end.kind().name().toLowerCase(java.util.Locale.ROOT) + ": " + end.message());
                }
                Trailer trailer = reader.trailer();
                if (trailer != null && trailer.droppedTotal() > 0) {
                    dropped += trailer.droppedTotal();
                    remarks.add("trailer reports " + trailer.droppedTotal() + " dropped: " + trailer);
                }
            } catch (IOException e) {
                remarks.add("cannot open " + log + ": " + e.getMessage());
            }
        }
        if (gaps > 0) {
            remarks.add(gaps + " gap records");
        }
        return new Tally(executions, dropped, logs.size(), remarks);
    }
}
