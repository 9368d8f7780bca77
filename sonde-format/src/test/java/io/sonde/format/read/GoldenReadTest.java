package io.sonde.format.read;

import static io.sonde.format.testing.GoldenScenarios.FULL_MONO;
import static io.sonde.format.testing.GoldenScenarios.FULL_WALL;
import static io.sonde.format.testing.GoldenScenarios.MINIMAL_MONO;
import static io.sonde.format.testing.GoldenScenarios.MINIMAL_WALL;
import static io.sonde.format.testing.GoldenScenarios.ROLLED_MONO;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.testing.GoldenFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads every golden file and checks every decoded value against golden/README.md. */
class GoldenReadTest {
    @TempDir
    Path tmp;

    /** One line per record with every field, resolved names included; definitions too. */
    static List<String> describe(SondeReader r) throws IOException {
        List<String> lines = new ArrayList<>();
        r.includeDefinitions(true);
        while (r.next()) {
            StringBuilder s = new StringBuilder("t").append(r.threadId()).append(' ').append(RecordTypes.name(r.type()));
            switch (r.type()) {
                case Format.PROBE_DEF:
                    s.append(' ').append(r.probeId()).append(' ').append(r.probeName()).append(' ').append(r.probeSignature());
                    break;
                case Format.STRING_DEF:
                case Format.THREAD_DEF:
                    s.append(' ').append(r.definedId()).append(' ').append(r.definedName());
                    break;
                case Format.EVENT_DEF:
                    s.append(' ').append(r.eventTypeId()).append(' ').append(r.eventType());
                    break;
                case Format.TRACE_START:
                    s.append(" trace=").append(Long.toHexString(r.traceId())).append(" parent=").append(Long.toHexString(r.parentTraceId()))
                            .append(" order=").append(r.parentOrderIndex());
                    if (r.hasHandoffTime()) {
                        s.append(" handoff=").append(r.handoffTime());
                    }
                    break;
                case Format.GAP:
                    s.append(" dropped=").append(r.gapCount());
                    break;
                case Format.EVENT:
                    s.append(' ').append(r.eventType().name()).append(" time=").append(r.time());
                    for (int i = 0; i < r.eventType().fieldCount(); i++) {
                        s.append(' ').append(r.eventType().fieldName(i)).append('=').append(r.fieldValue(i));
                    }
                    break;
                default:
                    s.append(' ').append(r.probeId()).append(' ').append(r.probeName()).append(" time=").append(r.time());
                    if (r.hasCpuTime()) {
                        s.append(" cpu=").append(r.cpuTime());
                    }
                    if (r.isExceptionExit()) {
                        s.append(" ex=").append(r.exceptionStringId()).append(' ').append(r.exceptionClass());
                    }
            }
            s.append(" @seq").append(r.frame().sequence());
            lines.add(s.toString());
        }
        return lines;
    }

    @Test
    void minimal() throws IOException {
        long m = MINIMAL_MONO;
        try (SondeReader r = SondeReader.open(GoldenFiles.copyTo("minimal.sonde", tmp))) {
            assertThat(describe(r)).containsExactly(
                    "t0 PROBE_DEF 1 com.example.Shop.checkout (I)V @seq0",
                    "t0 THREAD_DEF 1 main @seq1",
                    "t1 TRACE_START trace=100000001 parent=0 order=-1 @seq1",
                    "t1 ENTER 1 com.example.Shop.checkout time=" + (m + 100_000) + " @seq1",
                    "t1 EXIT 1 com.example.Shop.checkout time=" + (m + 350_000) + " @seq1");
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.trailer().produced()).isEqualTo(2);
            assertThat(r.trailer().written()).isEqualTo(2);
            assertThat(r.trailer().drops()).isEmpty();
            assertThat(r.trailer().balanced()).isTrue();
            assertThat(r.framesRead()).isEqualTo(3);
            assertThat(r.missingFrames()).isZero();
            FrameHeader f = r.frame(); // the trailer frame, the last one read
            assertThat(f.type()).isEqualTo(Format.FRAME_TRAILER);
            assertThat(f.agentId()).isEqualTo(UUID.fromString("01234567-89ab-cdef-fedc-ba9876543210"));
            assertThat(f.host()).isEqualTo("host-a");
            assertThat(f.pid()).isEqualTo(4242);
            assertThat(f.sequence()).isEqualTo(2);
            assertThat(f.wallNanos()).isEqualTo(MINIMAL_WALL + 2_000_000);
            assertThat(f.monoNanos()).isEqualTo(m + 2_000_000);
            assertThat(f.headerLength()).isEqualTo(68);
            assertThat(f.offset()).isEqualTo(372 - 88);
            assertThat(f.length()).isEqualTo(88);
        }
    }

    @Test
    void minimalFrameHeaderAndWallTimeOfARecord() throws IOException {
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(GoldenFiles.bytes("minimal.sonde")), "minimal")) {
            while (r.next() && r.type() != Format.ENTER) {
                // skip to the ENTER
            }
            assertThat(r.threadName()).isEqualTo("main");
            assertThat(r.frame().sequence()).isEqualTo(1);
            assertThat(r.frame().wallNanos()).isEqualTo(MINIMAL_WALL + 1_000_000);
            // wall = frame wall + (time - frame mono) = W + 1e6 + (M + 1e5 - (M + 1e6))
            assertThat(r.wallTime()).isEqualTo(MINIMAL_WALL + 100_000);
            assertThat(r.recordOffset()).isEqualTo(12 + 118 + 68 + 27 + 12 + 21);
            assertThat(r.agentId()).isEqualTo(UUID.fromString("01234567-89ab-cdef-fedc-ba9876543210"));
        }
    }

    @Test
    void full() throws IOException {
        long m = FULL_MONO;
        try (SondeReader r = SondeReader.open(GoldenFiles.copyTo("full.sonde", tmp))) {
            assertThat(describe(r)).containsExactly(
                    "t0 PROBE_DEF 1 com.example.Shop.checkout (I)V @seq0",
                    "t0 PROBE_DEF 2 com.example.Shop.price (Ljava/lang/String;)J @seq0",
                    "t0 PROBE_DEF 3 com.example.Db.query ()Ljava/util/List; @seq0",
                    "t0 STRING_DEF 1 java.io.IOException @seq0",
                    "t0 STRING_DEF 2 java.lang.IllegalStateException @seq0",
                    "t0 STRING_DEF 3 eu-west @seq0",
                    "t0 EVENT_DEF 1 order(boolean paid, int items, long cents, double weight, string region) @seq0",
                    "t0 EVENT_DEF 2 tick() @seq0",
                    "t0 THREAD_DEF 1 main @seq1",
                    "t0 THREAD_DEF 17 worker-\u00fc @seq1",
                    "t1 TRACE_START trace=100000001 parent=0 order=-1 @seq1",
                    "t1 ENTER 1 com.example.Shop.checkout time=" + (m + 10_000) + " @seq1",
                    "t1 ENTER_CPU 2 com.example.Shop.price time=" + (m + 20_000) + " cpu=700000 @seq1",
                    "t1 EXIT_CPU 2 com.example.Shop.price time=" + (m + 30_000) + " cpu=705000 @seq1",
                    "t1 ENTER 3 com.example.Db.query time=" + (m + 40_000) + " @seq1",
                    "t1 EXIT_EXCEPTION 3 com.example.Db.query time=" + (m + 50_000) + " ex=1 java.io.IOException @seq1",
                    "t1 EVENT order time=" + (m + 55_000) + " paid=true items=3 cents=1999 weight=2.5 region=eu-west @seq1",
                    "t17 TRACE_START trace=200000001 parent=100000001 order=1 @seq1",
                    "t17 ENTER_CPU 3 com.example.Db.query time=" + (m + 60_000) + " cpu=2000000 @seq1",
                    "t17 EXIT_EXCEPTION_CPU 3 com.example.Db.query time=" + (m + 70_000)
                            + " cpu=2004000 ex=2 java.lang.IllegalStateException @seq1",
                    "t17 GAP dropped=4 @seq1",
                    "t17 EVENT tick time=" + (m + 80_000) + " @seq1",
                    "t17 TRACE_START trace=200000002 parent=0 order=-1 @seq2",
                    "t17 ENTER 1 com.example.Shop.checkout time=" + (m + 1_100_000) + " @seq2",
                    "t17 EVENT order time=" + (m + 1_150_000)
                            + " paid=false items=-2147483648 cents=9223372036854775807 weight=-0.125 region=eu-west @seq2",
                    "t17 EXIT 1 com.example.Shop.checkout time=" + (m + 1_200_000) + " @seq2",
                    "t1 EXIT 1 com.example.Shop.checkout time=" + (m + 1_300_000) + " @seq2");
            assertThat(r.end().complete()).isTrue();
            assertThat(r.trailer().produced()).isEqualTo(17);
            assertThat(r.trailer().written()).isEqualTo(13);
            assertThat(r.trailer().drops()).containsExactly(org.assertj.core.api.Assertions.entry(1, 4L));
            assertThat(r.trailer().balanced()).isTrue();
            assertThat(r.frame().host()).isEqualTo("host-b.example");
            assertThat(r.frame().pid()).isEqualTo(31337);
            assertThat(r.frame().wallNanos()).isEqualTo(FULL_WALL + 3_000_000);
            assertThat(r.registry().threadName(17)).isEqualTo("worker-\u00fc");
            assertThat(r.registry().eventType(1).fieldType(4)).isEqualTo(Format.FIELD_STRING);
        }
    }

    @Test
    void fullTypedFieldAccessors() throws IOException {
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(GoldenFiles.bytes("full.sonde")), "full")) {
            while (r.next() && r.type() != Format.EVENT) {
                // skip to the first EVENT
            }
            assertThat(r.fieldBoolean(0)).isTrue();
            assertThat(r.fieldInt(1)).isEqualTo(3);
            assertThat(r.fieldLong(2)).isEqualTo(1999L);
            assertThat(r.fieldDouble(3)).isEqualTo(2.5);
            assertThat(r.fieldStringId(4)).isEqualTo(3);
            assertThat(r.fieldString(4)).isEqualTo("eu-west");
            assertThat(r.eventTypeId()).isEqualTo(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.fieldInt(0)).isInstanceOf(IllegalStateException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(r::cpuTime).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void rolledSegmentsReadAsOneStreamFromTheirFolder() throws IOException {
        long m = ROLLED_MONO;
        Path dir = tmp.resolve("agent");
        java.nio.file.Files.createDirectories(dir);
        for (String name : io.sonde.format.testing.GoldenScenarios.rolled().keySet()) {
            GoldenFiles.copyTo("rolled/" + name, dir);
        }
        try (SondeReader r = SondeReader.open(dir)) {
            assertThat(describe(r)).containsExactly(
                    "t0 PROBE_DEF 1 com.example.Job.run ()V @seq0",
                    "t0 STRING_DEF 1 java.lang.RuntimeException @seq0",
                    "t0 THREAD_DEF 5 pool-1-thread-1 @seq1",
                    "t5 TRACE_START trace=500000001 parent=0 order=-1 @seq1",
                    "t5 ENTER 1 com.example.Job.run time=" + (m + 100_000) + " @seq1",
                    "t0 PROBE_DEF 1 com.example.Job.run ()V @seq3",
                    "t0 STRING_DEF 1 java.lang.RuntimeException @seq3",
                    "t0 THREAD_DEF 5 pool-1-thread-1 @seq3",
                    "t5 EXIT_EXCEPTION 1 com.example.Job.run time=" + (m + 3_500_000) + " ex=1 java.lang.RuntimeException @seq4",
                    "t5 TRACE_START trace=500000002 parent=0 order=-1 @seq4",
                    "t5 ENTER 1 com.example.Job.run time=" + (m + 3_600_000) + " @seq4",
                    "t5 EXIT 1 com.example.Job.run time=" + (m + 3_700_000) + " @seq4");
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.trailer().produced()).isEqualTo(4);
            assertThat(r.missingFrames()).isZero();
            assertThat(r.source()).endsWith("-000001.sonde");
        }
    }

    /** Lines of every record of a golden file (a folder for rolled/). */
    private List<String> describeGolden(String relative) throws IOException {
        Path dir = tmp.resolve(relative.replace('/', '_').replace('.', '_'));
        java.nio.file.Files.createDirectories(dir);
        if (relative.endsWith("rolled")) {
            for (String name : io.sonde.format.testing.GoldenScenarios.rolled().keySet()) {
                GoldenFiles.copyTo(relative + "/" + name, dir);
            }
        } else {
            dir = GoldenFiles.copyTo(relative, dir);
        }
        try (SondeReader r = SondeReader.open(dir)) {
            List<String> lines = describe(r);
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.frame().streamMajorVersion()).isEqualTo(relative.startsWith("2.0/") ? 2 : 1);
            return lines;
        }
    }

    @Test
    void version2FilesReadToTheValuesOfVersion1WithTheHandoffTime() throws IOException {
        assertThat(describeGolden("2.0/minimal.sonde")).isEqualTo(describeGolden("minimal.sonde"));
        assertThat(describeGolden("2.0/rolled")).isEqualTo(describeGolden("rolled"));
        List<String> v1 = describeGolden("full.sonde");
        List<String> expected = new ArrayList<>();
        for (String line : v1) {
            expected.add(line.startsWith("t17 TRACE_START trace=200000001 ")
                    ? "t17 TRACE_START trace=200000001 parent=100000001 order=1 handoff="
                            + io.sonde.format.testing.GoldenScenarios.FULL_HANDOFF_TIME + " @seq1"
                    : line);
        }
        assertThat(describeGolden("2.0/full.sonde")).containsExactlyElementsOf(expected).isNotEqualTo(v1);
    }

    @Test
    void firstSegmentAloneEndsIncompleteNamingTheMissingSegment() throws IOException {
        Path seg0 = GoldenFiles.copyTo("rolled/" + io.sonde.format.testing.GoldenScenarios.rolledName(0), tmp);
        try (SondeReader r = SondeReader.open(seg0)) {
            while (r.next()) {
                // drain
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
            assertThat(r.end().message()).contains("segment 000001");
            assertThat(r.trailer()).isNull();
        }
    }
}
