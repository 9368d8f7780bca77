package io.sonde.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.RecordLayout.Block;
import io.sonde.format.RecordLayout.Cpu;
import io.sonde.format.RecordLayout.Enter;
import io.sonde.format.RecordLayout.EnterCpu;
import io.sonde.format.RecordLayout.Event;
import io.sonde.format.RecordLayout.Exit;
import io.sonde.format.RecordLayout.ExitCpu;
import io.sonde.format.RecordLayout.ExitException;
import io.sonde.format.RecordLayout.ExitExceptionCpu;
import io.sonde.format.RecordLayout.Gap;
import io.sonde.format.RecordLayout.Timed;
import io.sonde.format.RecordLayout.TraceStart;
import io.sonde.format.RecordLayout.TrailerPayload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The record descriptor is consistent (fields tile each record exactly, the sizes in
 * {@link Format} are its sizes), and it is the only place offsets are written: the encoders and
 * decoders of records in every module carry no offset literals.
 */
class RecordLayoutTest {
    private static final int U8 = 1;
    private static final int U32 = 4;
    private static final int I64 = 8;

    @Test
    void fieldsTileEachFixedSizeRecord() {
        assertThat(Timed.ID).isEqualTo(RecordLayout.TYPE + U8);
        assertThat(Timed.TIME).isEqualTo(Timed.ID + U32);
        assertThat(Timed.LENGTH).isEqualTo(Timed.TIME + I64);
        assertThat(Enter.LENGTH).isEqualTo(Timed.LENGTH);
        assertThat(Exit.LENGTH).isEqualTo(Timed.LENGTH);
        assertThat(ExitException.EXCEPTION_STRING_ID).isEqualTo(Timed.LENGTH);
        assertThat(ExitException.LENGTH).isEqualTo(ExitException.EXCEPTION_STRING_ID + U32);
        assertThat(Cpu.CPU_TIME).isEqualTo(Timed.LENGTH);
        assertThat(EnterCpu.LENGTH).isEqualTo(Cpu.CPU_TIME + I64);
        assertThat(ExitCpu.LENGTH).isEqualTo(Cpu.CPU_TIME + I64);
        assertThat(ExitExceptionCpu.EXCEPTION_STRING_ID).isEqualTo(Cpu.CPU_TIME + I64);
        assertThat(ExitExceptionCpu.LENGTH).isEqualTo(ExitExceptionCpu.EXCEPTION_STRING_ID + U32);
        assertThat(Event.EVENT_TYPE_ID).isEqualTo(Timed.ID);
        assertThat(Event.TIME).isEqualTo(Timed.TIME);
        assertThat(Event.FIELDS).isEqualTo(Timed.LENGTH).isEqualTo(Event.HEADER_LENGTH);
        assertThat(TraceStart.TRACE_ID).isEqualTo(U8);
        assertThat(TraceStart.PARENT_TRACE_ID).isEqualTo(TraceStart.TRACE_ID + I64);
        assertThat(TraceStart.PARENT_ORDER_INDEX).isEqualTo(TraceStart.PARENT_TRACE_ID + I64);
        assertThat(TraceStart.LENGTH).isEqualTo(TraceStart.PARENT_ORDER_INDEX + U32);
        assertThat(RecordLayout.HandoffStart.TRACE_ID).isEqualTo(TraceStart.TRACE_ID);
        assertThat(RecordLayout.HandoffStart.PARENT_ORDER_INDEX).isEqualTo(TraceStart.PARENT_ORDER_INDEX);
        assertThat(RecordLayout.HandoffStart.HANDOFF_TIME).isEqualTo(TraceStart.LENGTH);
        assertThat(RecordLayout.HandoffStart.LENGTH).isEqualTo(RecordLayout.HandoffStart.HANDOFF_TIME + I64);
        assertThat(Format.fixedRecordBytes(Format.HANDOFF_START)).isEqualTo(RecordLayout.HandoffStart.LENGTH);
        assertThat(Gap.LENGTH).isEqualTo(Gap.DROPPED + U32);
        assertThat(Block.HEADER_LENGTH).isEqualTo(Block.BYTE_LENGTH + U32);
        assertThat(TrailerPayload.DROP_ENTRIES).isEqualTo(TrailerPayload.DROP_ENTRY_COUNT + U32);
        assertThat(TrailerPayload.DROP_ENTRY_LENGTH).isEqualTo(TrailerPayload.DROP_COUNT + I64);
    }

    @Test
    void formatSizesAreTheDescriptorSizes() {
        byte[] types = {Enter.TYPE, Exit.TYPE, ExitException.TYPE, EnterCpu.TYPE, ExitCpu.TYPE, ExitExceptionCpu.TYPE, TraceStart.TYPE, Gap.TYPE};
        int[] lengths = {Enter.LENGTH, Exit.LENGTH, ExitException.LENGTH, EnterCpu.LENGTH, ExitCpu.LENGTH, ExitExceptionCpu.LENGTH, TraceStart.LENGTH, Gap.LENGTH};
        for (int i = 0; i < types.length; i++) {
            assertThat(Format.fixedRecordBytes(types[i])).as("type 0x%02x", types[i]).isEqualTo(lengths[i]);
        }
        assertThat(Format.fixedRecordBytes(Event.TYPE)).isEqualTo(-1);
    }

    // ---------------------------------------------------------------- no offset literals elsewhere

    /** The main sources that encode or decode records, relative to the repository root. */
    static final List<String> RECORD_CODE = List.of(
            "sonde-core/src/main/java/io/sonde/core/buffer/ThreadBuffer.java",
            "sonde-core/src/main/java/io/sonde/core/buffer/EventCursor.java",
            "sonde-core/src/main/java/io/sonde/core/pipeline/WriterLoop.java",
            "sonde-core/src/main/java/io/sonde/core/writer/TextWriter.java",
            "sonde-cli/src/main/java/io/sonde/cli/DumpCommand.java",
            "sonde-format/src/main/java/io/sonde/format/read/SondeReader.java",
            "sonde-format/src/main/java/io/sonde/format/read/RecordCursor.java",
            "sonde-format/src/main/java/io/sonde/format/read/FrameStream.java",
            "sonde-format/src/main/java/io/sonde/format/read/FrameInput.java",
            "sonde-format/src/main/java/io/sonde/format/read/Trailer.java",
            "sonde-format/src/main/java/io/sonde/format/read/RecordText.java",
            "sonde-format/src/main/java/io/sonde/format/write/ThreadRecords.java",
            "sonde-format/src/main/java/io/sonde/format/write/Definitions.java",
            "sonde-format/src/main/java/io/sonde/format/write/FrameHeader.java",
            "sonde-format/src/main/java/io/sonde/format/write/LogFileWriter.java");

    /**
     * The tell-tale signs of a hand-written offset: a byte access (LittleEndian loads, the ring's
     * VarHandles, typed ByteBuffer gets and puts, indexed put) at {@code position + <number>}; a
     * position advanced by a number ({@code q += 2}); sizes added up from numbers ({@code 1 + 4}).
     */
    private static final List<Pattern> LITERAL_OFFSETS = List.of(
            Pattern.compile("(?:LittleEndian\\.\\w+|(?:INTS|LONGS)\\.(?:get|set)\\w*|\\.(?:get|put)(?:Int|Long|Short|Double|Float)|\\.put)"
                    + "\\([^;]*?\\b[a-z]\\w*\\s*\\+\\s*\\d+\\s*[,)]"),
            Pattern.compile("\\b[a-z]\\w*\\s*[+-]=\\s*\\d+\\b"),
            Pattern.compile("\\b\\d+\\s*\\+\\s*\\d+\\b"));

    /** Lines of {@code source} (comments and string literals blanked) that look like offset literals. */
    static List<String> literalOffsets(String source) {
        String code = source
                .replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"")
                .replaceAll("//[^\\n]*", " ");
        List<String> found = new ArrayList<>();
        String[] lines = code.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            for (Pattern p : LITERAL_OFFSETS) {
                Matcher m = p.matcher(lines[i]);
                if (m.find()) {
                    found.add("line " + (i + 1) + ": " + lines[i].trim());
                    break;
                }
            }
        }
        return found;
    }

    @Test
    void theScanFindsHandWrittenOffsets() {
        assertThat(literalOffsets("INTS.set(ring, i + 13, cpu);")).hasSize(1);
        assertThat(literalOffsets("long t = LittleEndian.i64(b, rec + 5);")).hasSize(1);
        assertThat(literalOffsets("buf.putInt(blockStart + 8, n);")).hasSize(1);
        assertThat(literalOffsets("b.put(at + 0, type);")).hasSize(1);
        assertThat(literalOffsets("q += 2 + LittleEndian.u16(b, q);")).hasSize(1);
        assertThat(literalOffsets("ByteBuffer b = alloc(1 + 4 + 2 + n.length);")).hasSize(1);
        // the descriptor's names, comments and messages are fine
        assertThat(literalOffsets("INTS.set(ring, i + Cpu.CPU_TIME, cpu); // at i + 13\n"
                + "throw error(\"needs p + 4 bytes\");\n/* LittleEndian.i32(b, p + 1) */")).isEmpty();
    }

    @Test
    void recordCodeHasNoOffsetLiterals() throws IOException {
        Path root = repositoryRoot();
        for (String file : RECORD_CODE) {
            Path p = root.resolve(file);
            assertThat(p).as("record code file %s (update RECORD_CODE if it moved)", file).isRegularFile();
            assertThat(literalOffsets(Files.readString(p)))
                    .as("%s writes record offsets as numbers; use io.sonde.format.RecordLayout", file)
                    .isEmpty();
        }
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isDirectory(dir.resolve("sonde-format")) && Files.isDirectory(dir.resolve("sonde-core")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root above %s", Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }
}
