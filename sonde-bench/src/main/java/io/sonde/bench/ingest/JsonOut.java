package io.sonde.bench.ingest;

import io.sonde.collector.handler.HandlerStatus;
import java.util.List;
import java.util.Locale;

/** The benchmark's results as JSON (numbers and plain names only, so no escaping is needed beyond quotes). */
final class JsonOut {
    private JsonOut() {}

    static String write(List<IngestBenchmark.Result> results, double diskMiBs, int senders, double seconds, FrameTemplate t) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "{\n  \"senders\": %d,\n  \"secondsPerConfiguration\": %.1f,\n  \"frameBytes\": %d,\n"
                + "  \"recordsPerFrame\": %d,\n  \"diskSequentialWriteMiBPerSecond\": %.1f,\n  \"configurations\": [", senders, seconds,
                t.frameBytes(), t.recordsPerFrame(), diskMiBs));
        for (int i = 0; i < results.size(); i++) {
            IngestBenchmark.Result r = results.get(i);
            b.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                    "    {\"name\": \"%s\", \"seconds\": %.3f, \"frames\": %d, \"records\": %d, \"bytes\": %d, \"recordsPerSecond\": %.0f,"
                            + " \"framesPerSecond\": %.1f, \"mibPerSecond\": %.1f, \"drainSeconds\": %.3f, \"handlers\": [",
                    r.config(), r.seconds(), r.frames(), r.records(), r.bytes(), r.recordsPerSecond(), r.framesPerSecond(), r.mibPerSecond(),
                    r.drainSeconds()));
            for (int k = 0; k < r.handlers().size(); k++) {
                HandlerStatus h = r.handlers().get(k);
                b.append(k == 0 ? "" : ", ").append(String.format(Locale.ROOT, "{\"name\": \"%s\", \"handled\": %d, \"dropped\": %d, \"errors\": %d}",
                        h.name(), h.handled(), h.dropped(), h.errors()));
            }
            b.append("]}");
        }
        return b.append("\n  ]\n}\n").toString();
    }
}
