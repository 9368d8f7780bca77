package io.sonde.format.python;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.RecordTypes;
import io.sonde.format.read.SondeReader;
import io.sonde.format.testing.PythonApps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log written by the Python library (sonde-python) in a real Python process is read by the Java
 * reader to exactly the records the program made: probes, spans, CPU time, an exception exit,
 * events with every field type, a hand-off to another thread, and a balanced trailer. (The golden
 * files are the other shared vectors: sonde-python's test suite reproduces them byte for byte.)
 */
@Timeout(180)
class PythonLogTest {
    @TempDir
    Path dir;

    @Test
    void theJavaReaderReadsAPythonProgramsLogRecordForRecord() throws Exception {
        long before = System.currentTimeMillis() * 1_000_000L;
        String out = PythonApps.run("shop.py", Map.of("SONDE_DIR", dir.toString(), "SONDE_CPU", "1"), "3");
        long after = System.currentTimeMillis() * 1_000_000L;
        assertThat(out).contains("done");
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.toList();
        }
        assertThat(segments).hasSize(1);
        assertThat(segments.get(0).getFileName().toString()).matches("sonde-[0-9a-f-]{36}-000000\\.sonde");

        Map<String, List<String>> byThread = new LinkedHashMap<>();
        Map<String, Long> firstTrace = new HashMap<>();
        long lastCpu = -1;
        try (SondeReader r = SondeReader.open(dir)) {
            while (r.next()) {
                String thread = r.threadName();
                StringBuilder s = new StringBuilder(RecordTypes.name(r.type()));
                switch (r.type()) {
                    case Format.TRACE_START:
                        firstTrace.putIfAbsent(thread, r.traceId());
                        s.append(" parent=").append(r.parentTraceId() == 0 ? "0" : Long.toHexString(r.parentTraceId()))
                                .append(" order=").append(r.parentOrderIndex());
                        if (r.hasHandoffTime()) {
                            s.append(" handoff");
                            assertThat(r.handoffTime()).isPositive();
                        }
                        break;
                    case Format.EVENT:
                        s.append(' ').append(r.eventType().name());
                        for (int i = 0; i < r.eventType().fieldCount(); i++) {
                            s.append(' ').append(r.eventType().fieldName(i)).append('=').append(r.fieldValue(i));
                        }
                        break;
                    default:
                        s.append(' ').append(r.probeName());
                        assertThat(r.hasCpuTime()).as("SONDE_CPU=1: every execution carries CPU time").isTrue();
                        assertThat(r.cpuTime()).isGreaterThanOrEqualTo(0);
                        if (r.isExceptionExit()) {
                            s.append(" ex=").append(r.exceptionClass());
                        }
                        assertThat(r.wallTime()).isBetween(before, after);
                }
                byThread.computeIfAbsent(thread, k -> new ArrayList<>()).add(s.toString());
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.missingFrames()).isZero();
            assertThat(r.trailer().produced()).isEqualTo(3 * 7 + 2);
            assertThat(r.trailer().written()).isEqualTo(3 * 7 + 2);
            assertThat(r.trailer().drops()).isEmpty();
            assertThat(r.dataRecordsRead()).isEqualTo(3 * 7 + 2);
            assertThat(r.frame().streamMajorVersion()).isEqualTo(2);
            assertThat(r.frame().pid()).isPositive();
        }
        assertThat(byThread.keySet()).containsExactly("MainThread", "py-worker");
        List<String> main = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            main.add("TRACE_START parent=0 order=-1");
            main.add("ENTER_CPU py.shop.checkout");
            main.add("ENTER_CPU py.shop.price");
            main.add("EXIT_CPU py.shop.price");
            main.add("EVENT order paid=true items=" + i + " cents=1999 weight=2.5 region=eu-west");
            main.add("ENTER_CPU py.shop.audit");
            main.add("EXIT_EXCEPTION_CPU py.shop.audit ex=ValueError");
            main.add("EXIT_CPU py.shop.checkout");
        }
        assertThat(byThread.get("MainThread")).containsExactlyElementsOf(main);
        assertThat(byThread.get("py-worker")).containsExactly(
                "TRACE_START parent=" + Long.toHexString(firstTrace.get("MainThread")) + " order=0 handoff",
                "ENTER_CPU py.shop.ship",
                "EXIT_CPU py.shop.ship");
    }
}
