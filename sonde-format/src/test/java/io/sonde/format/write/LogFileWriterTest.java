package io.sonde.format.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every record {@link LogFileWriter} (through {@link ThreadRecords}) encodes reads back with its values. */
class LogFileWriterTest {
    @TempDir
    Path dir;

    @Test
    void everyRecordKindRoundTripsThroughTheReader() throws Exception {
        UUID agent = new UUID(1, 2);
        LogFileWriter w = new LogFileWriter(dir, agent, 7, "h", 1_000_000_000_000L, 500);
        w.probe(3, "a.B.c", "()V").string(9, "java.io.IOException").thread(42, "worker");
        w.traceStart(42, 0x1_0000_0001L, 0x2_0000_0005L, 3)
                .enter(42, 3, 1000)
                .enterCpu(42, 3, 1100, 77)
                .exitException(42, 3, 1200, 9)
                .exitExceptionCpu(42, 3, 1300, 88, 9)
                .gap(42, 6)
                .exitCpu(42, 3, 1400, 99)
                .exit(42, 3, 1500);
        w.close();
        try (SondeReader r = SondeReader.open(w.segmentFile(0))) {
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.TRACE_START);
            assertThat(r.threadName()).isEqualTo("worker");
            assertThat(r.traceId()).isEqualTo(0x1_0000_0001L);
            assertThat(r.parentTraceId()).isEqualTo(0x2_0000_0005L);
            assertThat(r.parentOrderIndex()).isEqualTo(3);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.ENTER);
            assertThat(r.probeName()).isEqualTo("a.B.c");
            assertThat(r.time()).isEqualTo(1000);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.ENTER_CPU);
            assertThat(r.time()).isEqualTo(1100);
            assertThat(r.cpuTime()).isEqualTo(77);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.EXIT_EXCEPTION);
            assertThat(r.time()).isEqualTo(1200);
            assertThat(r.exceptionClass()).isEqualTo("java.io.IOException");
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.EXIT_EXCEPTION_CPU);
            assertThat(r.time()).isEqualTo(1300);
            assertThat(r.cpuTime()).isEqualTo(88);
            assertThat(r.exceptionStringId()).isEqualTo(9);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.GAP);
            assertThat(r.gapCount()).isEqualTo(6);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.EXIT_CPU);
            assertThat(r.cpuTime()).isEqualTo(99);
            assertThat(r.next()).isTrue();
            assertThat(r.type()).isEqualTo(Format.EXIT);
            assertThat(r.time()).isEqualTo(1500);
            assertThat(r.wallTime()).isEqualTo(1_000_000_000_000L + 1000);
            assertThat(r.next()).isFalse();
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.trailer().produced()).isEqualTo(6);
            assertThat(r.agentId()).isEqualTo(agent);
        }
    }
}
