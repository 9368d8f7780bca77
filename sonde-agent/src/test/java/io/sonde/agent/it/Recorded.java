package io.sonde.agent.it;

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
import java.util.stream.Collectors;

/** The records an agent wrote, read back with the format's reader, in stream order. */
final class Recorded {

    /** One data record, decoded. {@code probe} is the probe name without signature. */
    record Rec(byte type, String thread, String probe, String exception, long traceId, long parentTraceId,
            int parentOrder) {

        boolean isEnter() {
            return type == Format.ENTER || type == Format.ENTER_CPU;
        }

        boolean isExit() {
            return type == Format.EXIT || type == Format.EXIT_CPU;
        }

        boolean isExceptionExit() {
            return type == Format.EXIT_EXCEPTION || type == Format.EXIT_EXCEPTION_CPU;
        }

        boolean isTraceStart() {
            return type == Format.TRACE_START;
        }

        /** The simple method name: the part after the last dot. */
        String method() {
            return probe == null ? null : probe.substring(probe.lastIndexOf('.') + 1);
        }

        @Override
        public String toString() {
            return type + " " + thread + " " + (probe != null ? probe : "") + (exception != null ? " !" + exception : "")
                    + (isTraceStart() ? " trace=" + traceId + " parent=" + parentTraceId + "/" + parentOrder : "");
        }
    }

    final List<Rec> records;
    final Trailer trailer;
    final ReadEnd end;

    private Recorded(List<Rec> records, Trailer trailer, ReadEnd end) {
        this.records = records;
        this.trailer = trailer;
        this.end = end;
    }

    /** Reads the single agent log under {@code dir}. */
    static Recorded read(Path dir) throws IOException {
        List<AgentLog> logs = SondeLogs.scan(dir);
        if (logs.size() != 1) {
            throw new AssertionError("expected one agent log under " + dir + ", found " + logs);
        }
        List<Rec> out = new ArrayList<>();
        try (SondeReader r = logs.get(0).open()) {
            while (r.next()) {
                byte t = r.type();
                boolean probe = t >= Format.ENTER && t <= Format.EXIT_EXCEPTION_CPU;
                boolean exc = t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU;
                boolean start = t == Format.TRACE_START;
                out.add(new Rec(t, r.threadName(), probe ? r.probeName() : null, exc ? r.exceptionClass() : null,
                        start ? r.traceId() : 0, start ? r.parentTraceId() : 0, start ? r.parentOrderIndex() : 0));
            }
            return new Recorded(out, r.trailer(), r.end());
        }
    }

    /** Records of one thread, in order. */
    List<Rec> thread(String name) {
        return records.stream().filter(r -> name.equals(r.thread())).collect(Collectors.toList());
    }

    /** Names of the threads that have data records. */
    List<String> threads() {
        return records.stream().map(Rec::thread).distinct().collect(Collectors.toList());
    }

    /** Number of ENTERs of probes whose name ends with {@code suffix}. */
    long enters(String suffix) {
        return records.stream().filter(r -> r.isEnter() && r.probe().endsWith(suffix)).count();
    }
}
