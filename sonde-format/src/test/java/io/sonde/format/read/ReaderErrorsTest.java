package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of bad input gives its own FormatException naming source, offset and problem. */
class ReaderErrorsTest {
    static final UUID AGENT = UUID.fromString("11111111-2222-3333-4444-555555555555");

    @TempDir
    Path tmp;

    static StreamBytes stream() {
        return new StreamBytes(AGENT, "h", 1);
    }

    static RecordBytes defs() {
        return new RecordBytes().probeDef(1, "p", "()V").threadDef(7, "t7");
    }

    /** Reads everything; returns the thread records delivered before the end or error. */
    static List<String> drain(SondeReader r) {
        List<String> got = new ArrayList<>();
        try {
            while (r.next()) {
                got.add(RecordTypes.name(r.type()));
            }
        } catch (IOException e) {
            got.add("error");
        }
        return got;
    }

    static FormatException readError(byte[] bytes) {
        SondeReader r = SondeReader.of(new ByteArrayInputStream(bytes), "input");
        drain(r);
        assertThat(r.end().kind()).as(r.end().toString()).isEqualTo(ReadEnd.Kind.ERROR);
        return (FormatException) r.end().error();
    }

    @Test
    void garbageIsBadMagicAtOffsetZeroNamingTheFile() throws IOException {
        Path f = tmp.resolve("garbage.sonde");
        Files.writeString(f, "hello, this is not a log at all");
        SondeReader r = SondeReader.open(f);
        assertThatThrownBy(r::next).isInstanceOf(FormatException.class)
                .hasMessage(f + ": offset 0: not a Sonde stream: bad magic byte 0x68 (expected 0x89)");
        assertThat(r.end().offset()).isZero();
        assertThat(r.next()).isFalse();
    }

    @Test
    void unknownMajorVersionIsNamedWithOffsetEight() {
        FormatException e = readError(new StreamBytes(AGENT, "h", 1, 3, 3).toBytes());
        assertThat(e.problem()).isEqualTo(FormatProblem.UNSUPPORTED_VERSION);
        assertThat(e.offset()).isEqualTo(8);
        assertThat(e.getMessage()).contains("unsupported format version 3.3").contains("major versions 1 to 2");
        FormatException zero = readError(new StreamBytes(AGENT, "h", 1, 0, 9).toBytes());
        assertThat(zero.problem()).isEqualTo(FormatProblem.UNSUPPORTED_VERSION);
        assertThat(zero.getMessage()).contains("unsupported format version 0.9");
    }

    @Test
    void handoffStartInAVersionOneStreamIsAnUnknownRecordType() {
        StreamBytes s = new StreamBytes(AGENT, "h", 1, 1, 0);
        s.data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().handoffStart(5, 4, 0, 3).enter(1, 5).exit(1, 6));
        FormatException e = readError(s.toBytes());
        assertThat(e.problem()).isEqualTo(FormatProblem.UNKNOWN_RECORD_TYPE);
        assertThat(e.getMessage()).contains("unknown record type 0x0a").contains("this stream is version 1");
        // the same records in a 2.0 stream read
        StreamBytes v2 = new StreamBytes(AGENT, "h", 1, 2, 0);
        v2.data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().handoffStart(5, 4, 0, 3).enter(1, 5).exit(1, 6));
        v2.trailer(1, 0, 0, 2, 2);
        SondeReader r = SondeReader.of(new ByteArrayInputStream(v2.toBytes()), "input");
        assertThat(drain(r)).containsExactly("TRACE_START", "ENTER", "EXIT");
        assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
    }

    @Test
    void laterMinorVersionWithLongerHeaderAndUnknownFrameTypeIsRead() throws IOException {
        StreamBytes s = new StreamBytes(AGENT, "h", 1, 1, 1).extraHeader(new byte[] {9, 9, 9});
        s.data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 5).exit(1, 6));
        s.raw(s.frame(77, 1, 0, 0, new byte[] {1, 2, 3}));
        s.trailer(2, 0, 0, 2, 2);
        SondeReader r = SondeReader.of(new ByteArrayInputStream(s.toBytes()), "input");
        assertThat(drain(r)).containsExactly("ENTER", "EXIT");
        assertThat(r.end().complete()).isTrue();
    }

    @Test
    void unknownFrameTypeInVersion10IsAnError() {
        StreamBytes s = stream();
        s.raw(s.frame(77, 0, 0, 0, new byte[0]));
        FormatException e = readError(s.toBytes());
        assertThat(e.problem()).isEqualTo(FormatProblem.UNKNOWN_FRAME_TYPE);
        assertThat(e.offset()).isEqualTo(12 + 12);
    }

    @Test
    void truncationAtEveryOffsetDeliversWhatCameBeforeAndSaysWhy() {
        byte[] full = GoldenFiles.bytes("minimal.sonde");
        List<Integer> frames = Frames.offsets(full);
        for (int cut = 0; cut < full.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(full, cut);
            SondeReader r = SondeReader.of(new ByteArrayInputStream(part), "cut");
            List<String> got = drain(r);
            ReadEnd end = r.end();
            if (cut == 0) {
                assertThat(end.kind()).isEqualTo(ReadEnd.Kind.ERROR);
                assertThat(end.message()).contains("empty input");
            } else if (cut < 12) {
                assertThat(((FormatException) end.error()).problem()).isEqualTo(FormatProblem.TRUNCATED);
            } else if (frames.contains(cut)) {
                assertThat(end.kind()).as("cut at " + cut).isEqualTo(ReadEnd.Kind.INCOMPLETE);
                assertThat(end.message()).isEqualTo("stream ended without trailer at offset " + cut);
                assertThat(end.offset()).isEqualTo(cut);
            } else {
                FormatException e = (FormatException) end.error();
                assertThat(e.problem()).as("cut at " + cut).isEqualTo(FormatProblem.TRUNCATED);
                assertThat(e.offset()).isEqualTo(cut);
                int at = cut;
                int frameStart = frames.stream().filter(o -> o <= at).mapToInt(o -> o).max().getAsInt();
                assertThat(e.getMessage()).contains("only " + (cut - frameStart) + " available");
            }
            // the second frame holds the three thread records; they arrive only once it is whole
            int secondFrameEnd = frames.get(2);
            assertThat(got.stream().filter(t -> !t.equals("error")).count()).as("cut at " + cut).isEqualTo(cut >= secondFrameEnd ? 3 : 0);
        }
    }

    @Test
    void crcMismatchNamesTheFrameOffset() {
        byte[] b = GoldenFiles.bytes("minimal.sonde");
        int second = Frames.offsets(b).get(1);
        b[second + 80] ^= 0x01;
        FormatException e = readError(b);
        assertThat(e.problem()).isEqualTo(FormatProblem.CRC_MISMATCH);
        assertThat(e.offset()).isEqualTo(second);
        assertThat(e.getMessage()).startsWith("input: offset " + second + ": CRC mismatch in frame of 154 bytes (stored 0x");
    }

    @Test
    void frameLengthsOutOfRange() {
        for (int bad : new int[] {0, 61, Format.MAX_FRAME_BYTES + 1, -1}) {
            byte[] b = GoldenFiles.bytes("minimal.sonde");
            Frames.putU32(b, 16, bad);
            FormatException e = readError(b);
            assertThat(e.problem()).isEqualTo(FormatProblem.BAD_FRAME_LENGTH);
            assertThat(e.offset()).isEqualTo(16);
            assertThat(e.getMessage()).contains("frame length " + Integer.toUnsignedString(bad) + " out of range");
        }
    }

    @Test
    void hugeButAllowedLengthOnShortInputIsTruncationNotAnAllocation() {
        byte[] b = GoldenFiles.bytes("minimal.sonde");
        Frames.putU32(b, 16, Format.MAX_FRAME_BYTES);
        FormatException e = readError(b);
        assertThat(e.problem()).isEqualTo(FormatProblem.TRUNCATED);
        assertThat(e.getMessage()).contains("declares " + Format.MAX_FRAME_BYTES + " bytes; only " + (b.length - 12) + " available");
    }

    @Test
    void badFrameMagic() {
        byte[] b = GoldenFiles.bytes("minimal.sonde");
        int second = Frames.offsets(b).get(1);
        b[second] = 'X';
        FormatException e = readError(b);
        assertThat(e.problem()).isEqualTo(FormatProblem.BAD_FRAME_MAGIC);
        assertThat(e.offset()).isEqualTo(second);
    }

    @Test
    void headerLengthBeyondFrame() {
        byte[] b = GoldenFiles.bytes("minimal.sonde");
        b[12 + 14] = (byte) 0xFF;
        b[12 + 15] = (byte) 0x7F;
        Frames.fixCrc(b, 12);
        assertThat(readError(b).problem()).isEqualTo(FormatProblem.BAD_FRAME_HEADER);
    }

    @Test
    void unknownRecordType() {
        byte[] b = stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 5).bytes(0x42, 0, 0)).toBytes();
        FormatException e = readError(b);
        assertThat(e.problem()).isEqualTo(FormatProblem.UNKNOWN_RECORD_TYPE);
        assertThat(e.getMessage()).contains("unknown record type 0x42 in the block of thread 7");
        assertThat(e.offset()).isEqualTo(b.length - 3);
    }

    @Test
    void dataRecordInRegistryBlock() {
        byte[] b = stream().data(0, 0, 0, 0L, defs().enter(1, 5)).toBytes();
        assertThat(readError(b).getMessage()).contains("data record type 0x01 in the registry block");
    }

    @Test
    void recordOverrunningItsBlock() {
        byte[] enter = new RecordBytes().enter(1, 5).toBytes();
        byte[] cut = java.util.Arrays.copyOf(enter, 9);
        byte[] b = stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().raw(cut)).toBytes();
        FormatException e = readError(b);
        assertThat(e.problem()).isEqualTo(FormatProblem.RECORD_OVERRUN);
        assertThat(e.getMessage()).contains("record of type 0x01 needs 13 bytes, its block has 9 left");
    }

    @Test
    void definitionOverrunningItsBlock() {
        byte[] def = new RecordBytes().probeDef(1, "name", "sig").toBytes();
        byte[] b = stream().data(0, 0, 0, 0L, new RecordBytes().raw(java.util.Arrays.copyOf(def, def.length - 1))).toBytes();
        assertThat(readError(b).problem()).isEqualTo(FormatProblem.RECORD_OVERRUN);
    }

    @Test
    void blockOverrunningItsFrame() {
        StreamBytes s = stream();
        byte[] payload = new RecordBytes().raw(new byte[] {7, 0, 0, 0, 0, 0, 0, 0, (byte) 0xF0, 0, 0, 0, 1, 2}).toBytes();
        s.raw(s.frame(1, 0, 0, 0, payload));
        FormatException e = readError(s.toBytes());
        assertThat(e.problem()).isEqualTo(FormatProblem.BLOCK_OVERRUN);
        assertThat(e.getMessage()).contains("block of thread 7 declares 240 bytes, frame has 2 left");
        StreamBytes s2 = stream();
        s2.raw(s2.frame(1, 0, 0, 0, new byte[] {7, 0, 0}));
        assertThat(readError(s2.toBytes()).getMessage()).contains("block header needs 12 bytes, frame has 3 left");
    }

    @Test
    void undefinedIds() {
        assertThat(readError(stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(9, 5)).toBytes()).getMessage())
                .contains("uses undefined probe id 9");
        assertThat(readError(stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().exitException(1, 5, 3)).toBytes()).getMessage())
                .contains("exception class uses undefined string id 3");
        assertThat(readError(stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().event(4, 5)).toBytes()).getMessage())
                .contains("EVENT uses undefined event type id 4");
        RecordBytes withEvent = defs().eventDef(1, "e", 5, "s");
        FormatException e = readError(stream().data(0, 0, 0, 0L, withEvent, 7L, new RecordBytes().event(1, 5, RecordBytes.str(8))).toBytes());
        assertThat(e.problem()).isEqualTo(FormatProblem.UNDEFINED_ID);
        assertThat(e.getMessage()).contains("event field s uses undefined string id 8");
    }

    @Test
    void definitionAfterUseIsAnUndefinedId() {
        byte[] b = stream().data(0, 0, 0, 7L, new RecordBytes().enter(1, 5), 0L, defs()).toBytes();
        assertThat(readError(b).problem()).isEqualTo(FormatProblem.UNDEFINED_ID);
    }

    @Test
    void identicalRedefinitionIsFineConflictingOneIsNot() throws IOException {
        byte[] ok = stream().data(0, 0, 0, 0L, defs()).data(1, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 1)).toBytes();
        SondeReader r = SondeReader.of(new ByteArrayInputStream(ok), "ok");
        assertThat(drain(r)).containsExactly("ENTER");
        byte[] bad = stream().data(0, 0, 0, 0L, defs()).data(1, 0, 0, 0L, new RecordBytes().probeDef(1, "p", "(I)V")).toBytes();
        FormatException e = readError(bad);
        assertThat(e.problem()).isEqualTo(FormatProblem.CONFLICTING_DEFINITION);
        assertThat(e.getMessage()).contains("probe id 1 redefined as p(I)V (was p()V)");
        byte[] badEvent = stream().data(0, 0, 0, 0L, new RecordBytes().eventDef(1, "e", 2, "a"), 0L, new RecordBytes().eventDef(1, "e", 3, "a")).toBytes();
        assertThat(readError(badEvent).problem()).isEqualTo(FormatProblem.CONFLICTING_DEFINITION);
    }

    @Test
    void badValues() {
        byte[] b = stream().data(0, 0, 0, 0L, defs().eventDef(1, "e", 1, "flag"), 7L, new RecordBytes().event(1, 5).raw((byte) 2)).toBytes();
        assertThat(readError(b).getMessage()).contains("boolean field flag has value 2");
        byte[] t = stream().data(0, 0, 0, 0L, new RecordBytes().eventDef(1, "e", 9, "x")).toBytes();
        assertThat(readError(t).getMessage()).contains("unknown field type 9");
    }

    @Test
    void framesAfterTrailerAndAgentChanges() {
        byte[] b = stream().trailer(0, 0, 0, 0, 0).data(1, 0, 0, 0L, defs()).toBytes();
        assertThat(readError(b).getMessage()).contains("frame after the TRAILER frame");
        StreamBytes other = new StreamBytes(UUID.randomUUID(), "h", 1);
        byte[] mixed = stream().data(0, 0, 0, 0L, defs()).raw(other.dataFrame(1, 0, 0, 0L, defs())).toBytes();
        FormatException e = readError(mixed);
        assertThat(e.problem()).isEqualTo(FormatProblem.AGENT_CHANGED);
    }

    @Test
    void trailerWithTooManyDropEntries() {
        StreamBytes s = stream();
        s.raw(s.frame(2, 0, 0, 0, new RecordBytes().raw(new byte[16]).bytes(5, 0, 0, 0).toBytes()));
        assertThat(readError(s.toBytes()).getMessage()).contains("TRAILER declares 5 drop entries, payload holds 0");
    }

    @Test
    void recordsBeforeTheBadFrameAreDelivered() {
        byte[] good = stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 1).exit(1, 2)).toBytes();
        byte[] b = java.util.Arrays.copyOf(good, good.length + 20);
        System.arraycopy("SNDF-garbage-garbage".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, b, good.length, 20);
        SondeReader r = SondeReader.of(new ByteArrayInputStream(b), "input");
        assertThat(drain(r)).containsExactly("ENTER", "EXIT", "error");
        assertThat(r.end().offset()).isEqualTo(good.length + 4);
    }

    @Test
    void gapsInFrameSequenceNumbersAreCountedNotFatal() throws IOException {
        byte[] b = stream().data(0, 0, 0, 0L, defs()).data(1, 0, 0, 7L, new RecordBytes().enter(1, 1))
                .data(4, 0, 0, 7L, new RecordBytes().exit(1, 2)).data(5, 0, 0).trailer(9, 0, 0, 2, 2).toBytes();
        SondeReader r = SondeReader.of(new ByteArrayInputStream(b), "input");
        assertThat(drain(r)).containsExactly("ENTER", "EXIT");
        assertThat(r.end().complete()).isTrue();
        assertThat(r.missingFrames()).isEqualTo(2 + 3);
    }

    @Test
    void segmentsMustFollowTheirSegmentEnd() throws IOException {
        StreamBytes s0 = stream().data(0, 0, 0, 0L, defs()).segmentEnd(1, 0, 0, 1);
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"), s0.toBytes());
        Files.write(tmp.resolve("sonde-" + AGENT + "-000002.sonde"), stream().data(2, 0, 0, 0L, defs()).toBytes());
        SondeReader r = SondeReader.open(tmp);
        drain(r);
        FormatException e = (FormatException) r.end().error();
        assertThat(e.problem()).isEqualTo(FormatProblem.BAD_SEGMENTS);
        assertThat(e.getMessage()).contains("expected segment 000001").contains("found segment 000002");
    }

    @Test
    void aSegmentStartingAgainAtSequenceZeroStartsANewRunOfTheAgent() throws IOException {
        // run 0: segments 0 and 1 ending with a trailer; run 1 (agent restarted with the same id): segment 2
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"),
                stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 1)).segmentEnd(1, 0, 0, 1).toBytes());
        Files.write(tmp.resolve("sonde-" + AGENT + "-000001.sonde"),
                stream().data(2, 0, 0, 0L, defs(), 7L, new RecordBytes().exit(1, 2)).trailer(3, 0, 0, 2, 2).toBytes());
        Files.write(tmp.resolve("sonde-" + AGENT + "-000002.sonde"),
                stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 5)).trailer(1, 0, 0, 1, 1).toBytes());
        List<AgentLog> logs = SondeLogs.scan(tmp);
        assertThat(logs).extracting(AgentLog::run).containsExactly(0, 1);
        assertThat(logs).extracting(AgentLog::segmentIndexes).containsExactly(List.of(0, 1), List.of(2));
        try (SondeReader r = logs.get(0).open()) {
            assertThat(drain(r)).containsExactly("ENTER", "EXIT");
            assertThat(r.end().complete()).isTrue();
        }
        try (SondeReader r = logs.get(1).open()) {
            assertThat(drain(r)).containsExactly("ENTER");
            assertThat(r.trailer().written()).isEqualTo(1);
        }
        // a segment after the trailer that does not start at sequence 0 is still an error
        Files.write(tmp.resolve("sonde-" + AGENT + "-000003.sonde"), stream().data(2, 0, 0, 0L, defs()).toBytes());
        try (SondeReader r = SondeLogs.scan(tmp).get(1).open()) {
            drain(r);
            assertThat(((FormatException) r.end().error()).problem()).isEqualTo(FormatProblem.BAD_SEGMENTS);
        }
    }

    @Test
    void aSegmentEndingInsideAFrameWithASegmentAfterItEndsThereAndTheLogGoesOn() throws IOException {
        // a receiver killed while it wrote the agent's frame 0; the agent sends frame 0 again to the next one
        byte[] whole = stream().data(0, 0, 0, 0L, defs(), 7L, new RecordBytes().enter(1, 1)).toBytes();
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"), java.util.Arrays.copyOf(whole, whole.length - 3));
        Files.write(tmp.resolve("sonde-" + AGENT + "-000001.sonde"), stream().data(0, 0, 0, 0L, defs(), 7L,
                new RecordBytes().enter(1, 1)).data(1, 0, 0, 7L, new RecordBytes().exit(1, 2)).trailer(2, 0, 0, 2, 2).toBytes());
        List<AgentLog> logs = SondeLogs.scan(tmp);
        assertThat(logs).extracting(AgentLog::segmentIndexes).containsExactly(List.of(0, 1));
        try (SondeReader r = logs.get(0).open()) {
            assertThat(drain(r)).containsExactly("ENTER", "EXIT");
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.tornSegments()).isEqualTo(1);
        }
        // once a whole frame is held, frame 0 again is a new run (the test above)
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"), whole);
        assertThat(SondeLogs.scan(tmp)).extracting(AgentLog::segmentIndexes).containsExactly(List.of(0), List.of(1));
        // the last segment ending inside a frame is still truncation
        Files.delete(tmp.resolve("sonde-" + AGENT + "-000001.sonde"));
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"), java.util.Arrays.copyOf(whole, whole.length - 3));
        try (SondeReader r = SondeReader.open(tmp)) {
            assertThat(drain(r)).containsExactly("error");
            assertThat(((FormatException) r.end().error()).problem()).isEqualTo(FormatProblem.TRUNCATED);
        }
    }

    @Test
    void folderWithSeveralAgentsMustBeScanned() throws IOException {
        Files.write(tmp.resolve("sonde-" + AGENT + "-000000.sonde"), stream().toBytes());
        UUID other = UUID.fromString("99999999-2222-3333-4444-555555555555");
        Files.createDirectories(tmp.resolve(other.toString()));
        Files.write(tmp.resolve(other + "/sonde-" + other + "-000000.sonde"), new StreamBytes(other, "x", 2).toBytes());
        assertThatThrownBy(() -> SondeReader.open(tmp)).isInstanceOf(FormatException.class).hasMessageContaining("holds 2 separate streams");
        List<AgentLog> logs = SondeLogs.scan(tmp);
        assertThat(logs).extracting(AgentLog::agentId).containsExactlyInAnyOrder(AGENT, other);
        assertThatThrownBy(() -> SondeReader.open(tmp.resolve("nope"))).isInstanceOf(FormatException.class).hasMessageContaining("no such file");
    }
}
