package io.sonde.analysis.export;

import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Per-operation statistics as CSV (RFC 4180: comma separated, fields with commas, quotes or line
 * breaks quoted): one header line, then one line per operation by descending total exclusive time.
 * Times are integer nanoseconds except means (decimal); unknown CPU means are empty.
 */
public final class CsvExport {
    public static final String HEADER = "operation,count,exceptions,"
            + "incl_mean_ns,incl_p50_ns,incl_p90_ns,incl_p99_ns,incl_max_ns,incl_total_ns,"
            + "excl_mean_ns,excl_p50_ns,excl_p90_ns,excl_p99_ns,excl_max_ns,excl_total_ns,"
            + "cpu_incl_mean_ns,cpu_excl_mean_ns,"
            + "handoffs,handoff_wait_mean_ns,handoff_wait_p50_ns,handoff_wait_p90_ns,handoff_wait_p99_ns,handoff_wait_max_ns,handoff_wait_total_ns";

    private CsvExport() {}

    public static void write(AnalysisResult r, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(r, w);
        }
    }

    public static void write(AnalysisResult r, Writer w) throws IOException {
        w.write(HEADER);
        w.write("\r\n");
        for (OperationStats s : r.statistics().all()) {
            StringBuilder b = new StringBuilder();
            b.append(quote(s.operation().name())).append(',').append(s.count()).append(',').append(s.exceptions());
            distribution(b, s.inclusive());
            distribution(b, s.exclusive());
            b.append(',').append(mean(s.cpuInclusiveMean())).append(',').append(mean(s.cpuExclusiveMean()));
            b.append(',').append(s.handoffs());
            if (s.handoffWait() != null) distribution(b, s.handoffWait());
            else b.append(",,,,,,");
            w.write(b.toString());
            w.write("\r\n");
        }
    }

    private static void distribution(StringBuilder b, LatencyDistribution d) {
        b.append(',').append(mean(d.mean()))
                .append(',').append(d.percentile(50))
                .append(',').append(d.percentile(90))
                .append(',').append(d.percentile(99))
                .append(',').append(d.max())
                .append(',').append(d.sum());
    }

    private static String mean(double v) {
        if (v < 0) return "";
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** Quotes a field when it holds a comma, quote, CR or LF (quotes doubled). */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) return s;
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
