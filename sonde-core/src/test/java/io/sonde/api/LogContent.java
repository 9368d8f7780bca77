package io.sonde.api;

import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A stream read back through the format's reader library: per-thread record lines, trailer, trace ids. */
final class LogContent {
    final Map<String, List<String>> byThreadName = new LinkedHashMap<>();
    final Map<String, List<Long>> timesByThreadName = new LinkedHashMap<>();
    final List<Long> traceIds = new ArrayList<>();
    long dataRecords;
    Trailer trailer;
    boolean complete;
    String end;

    static LogContent read(Path fileOrDir) throws IOException {
        LogContent c = new LogContent();
        try (SondeReader r = SondeReader.open(fileOrDir)) {
            while (r.next()) {
                byte t = r.type();
                String thread = r.threadName();
                List<String> lines = c.byThreadName.computeIfAbsent(thread, k -> new ArrayList<>());
                if (Format.isDataRecord(t)) {
                    c.dataRecords++;
                    c.timesByThreadName.computeIfAbsent(thread, k -> new ArrayList<>()).add(r.time());
                }
                lines.add(line(r, t));
                if (t == Format.TRACE_START) c.traceIds.add(r.traceId());
            }
            c.trailer = r.trailer();
            c.complete = r.end().complete();
            c.end = String.valueOf(r.end());
        }
        return c;
    }

    static String line(SondeReader r, byte t) {
        switch (t) {
            case Format.ENTER:
                return "ENTER " + r.probeName();
            case Format.EXIT:
                return "EXIT " + r.probeName();
            case Format.EXIT_EXCEPTION:
                return "EXIT_EXCEPTION " + r.probeName() + " " + r.exceptionClass();
            case Format.ENTER_CPU:
                return "ENTER_CPU " + r.probeName() + (r.cpuTime() >= 0 ? "" : " negative cpu");
            case Format.EXIT_CPU:
                return "EXIT_CPU " + r.probeName() + (r.cpuTime() >= 0 ? "" : " negative cpu");
            case Format.EXIT_EXCEPTION_CPU:
                return "EXIT_EXCEPTION_CPU " + r.probeName() + " " + r.exceptionClass();
            case Format.EVENT: {
                StringBuilder b = new StringBuilder("EVENT ").append(r.eventType().name());
                for (int i = 0; i < r.eventType().fieldCount(); i++) b.append(' ').append(r.fieldValue(i));
                return b.toString();
            }
            case Format.TRACE_START:
                return "TRACE_START parent=" + r.parentTraceId() + " order=" + r.parentOrderIndex();
            case Format.GAP:
                return "GAP " + r.gapCount();
            default:
                return "type " + t;
        }
    }
}
