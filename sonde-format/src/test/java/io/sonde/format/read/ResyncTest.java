package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Recovery mode ({@link SondeReader#recover}): the reader skips damaged bytes to the next valid
 * frame, reports each problem with its offset and the skipped range, checks sequence numbers and
 * the trailer's count, and delivers every record of the undamaged frames (issue 17).
 */
class ResyncTest {
    private static final UUID AGENT = new UUID(7, 8);
    /** Data frames of the test stream; frame i (sequence i+1) holds 10 ENTER/EXIT pairs of thread 1. */
    private static final int DATA_FRAMES = 10;
    private static final int PAIRS = 10;

    /** Registry frame (sequence 0), DATA_FRAMES data frames, trailer (written = all data records). */
    private static byte[] stream(int... order) {
        StreamBytes s = new StreamBytes(AGENT, "h", 1);
        s.data(0, 0, 0, 0L, new RecordBytes().probeDef(1, "p", "()V").threadDef(1, "t"));
        for (int i : order) {
            s.raw(dataFrame(s, i));
        }
        return s.trailer(DATA_FRAMES + 1, 0, 0, DATA_FRAMES * PAIRS * 2, DATA_FRAMES * PAIRS * 2).toBytes();
    }

    private static byte[] dataFrame(StreamBytes s, int i) {
        RecordBytes r = new RecordBytes();
        for (int k = 0; k < PAIRS; k++) {
            long t = 1000L * i + 2 * k;
            r.enter(1, t).exit(1, t + 1);
        }
        return s.dataFrame(i + 1, 0, 0, 1L, r);
    }

    private static byte[] inOrder() {
        int[] order = new int[DATA_FRAMES];
        Arrays.setAll(order, i -> i);
        return stream(order);
    }

    /** Reads in recovery mode: {records delivered (data), problems}. */
    private static Outcome recover(byte[] bytes) throws IOException {
        Outcome o = new Outcome();
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(bytes), "s").recover(o.problems::add)) {
            while (r.next()) {
                if (Format.isDataRecord(r.type())) {
                    o.times.add(r.time());
                }
            }
            o.end = r.end();
        }
        return o;
    }

    private static final class Outcome {
        final List<FormatException> problems = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        ReadEnd end;

        List<FormatProblem> kinds() {
            return problems.stream().map(FormatException::problem).toList();
        }
    }

    @Test
    void aCorruptFrameIsSkippedAndTheRestOfTheStreamIsRead() throws IOException {
        byte[] b = inOrder();
        List<Integer> frames = Frames.offsets(b);
        int bad = frames.get(4); // data frame 3 (sequence 4)
        for (int i = 0; i < 64 && bad + 20 + i < b.length; i++) {
            b[bad + 20 + i] ^= (byte) 0x5A;
        }
        // strict mode stops at the bad frame
        assertThatThrownBy(() -> {
            try (SondeReader r = SondeReader.of(new ByteArrayInputStream(b), "s")) {
                while (r.next()) {
                    // read
                }
            }
        }).isInstanceOf(FormatException.class).hasMessageContaining("CRC mismatch");

        Outcome o = recover(b);
        assertThat(o.times).hasSize((DATA_FRAMES - 1) * PAIRS * 2);
        assertThat(o.times).doesNotContain(3000L).contains(2000L, 4000L, 9019L);
        assertThat(o.kinds()).containsExactly(FormatProblem.CRC_MISMATCH, FormatProblem.SEQUENCE_GAP, FormatProblem.TRAILER_MISMATCH);
        FormatException crc = o.problems.get(0);
        assertThat(crc.offset()).isEqualTo(bad);
        int next = frames.get(5);
        assertThat(crc.detail()).contains("skipped bytes " + bad + ".." + next + " (" + (next - bad) + " bytes) to the next valid frame");
        assertThat(o.problems.get(1).detail()).contains("1 frame missing (sequence jumps from 3 to 5");
        assertThat(o.problems.get(2).detail()).isEqualTo("trailer says 200 records written, 180 read: 20 missing or unreadable");
        assertThat(o.end.kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
    }

    @Test
    void aCorruptLengthFieldDoesNotHideTheFramesBehindIt() throws IOException {
        for (int length : new int[] {0, 63, 500, 1 << 20, Format.MAX_FRAME_BYTES, -1}) {
            byte[] b = inOrder();
            int bad = Frames.offsets(b).get(2);
            Frames.putU32(b, bad + 4, length);
            Outcome o = recover(b);
            assertThat(o.times).as("length %d", length).hasSize((DATA_FRAMES - 1) * PAIRS * 2);
            assertThat(o.problems.get(0).offset()).isEqualTo(bad);
            assertThat(o.end.kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
        }
    }

    @Test
    void garbageBetweenFramesAndACutTailAreSkippedAndReported() throws IOException {
        byte[] b = inOrder();
        int at = Frames.offsets(b).get(3);
        byte[] garbage = "junk SNDF not a frame SNDF\0\0\0\0 at all".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] withGarbage = new byte[b.length + garbage.length];
        System.arraycopy(b, 0, withGarbage, 0, at);
        System.arraycopy(garbage, 0, withGarbage, at, garbage.length);
        System.arraycopy(b, at, withGarbage, at + garbage.length, b.length - at);
        Outcome o = recover(withGarbage);
        assertThat(o.times).hasSize(DATA_FRAMES * PAIRS * 2);
        assertThat(o.kinds()).containsExactly(FormatProblem.BAD_FRAME_MAGIC);
        assertThat(o.problems.get(0).detail()).contains("skipped bytes " + at + ".." + (at + garbage.length));

        byte[] cut = Arrays.copyOf(b, Frames.offsets(b).get(6) + 30);
        o = recover(cut);
        assertThat(o.times).hasSize(5 * PAIRS * 2);
        assertThat(o.kinds()).containsExactly(FormatProblem.TRUNCATED);
        assertThat(o.problems.get(0).detail()).contains("to the end of the input");
        assertThat(o.end.kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
    }

    @Test
    void aDuplicateFrameIsSkippedAndReordersAndGapsAreReported() throws IOException {
        Outcome dup = recover(stream(0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9));
        assertThat(dup.times).hasSize(DATA_FRAMES * PAIRS * 2);
        assertThat(dup.kinds()).containsExactly(FormatProblem.DUPLICATE_FRAME);
        assertThat(dup.problems.get(0).problem().breaksContinuity()).isFalse();

        Outcome reordered = recover(stream(0, 1, 3, 2, 4, 5, 6, 7, 8, 9));
        assertThat(reordered.times).hasSize(DATA_FRAMES * PAIRS * 2);
        assertThat(reordered.kinds()).containsExactly(FormatProblem.SEQUENCE_GAP, FormatProblem.REORDERED_FRAME);

        Outcome missing = recover(stream(0, 1, 2, 3, 4, 5, 7, 8, 9));
        assertThat(missing.kinds()).containsExactly(FormatProblem.SEQUENCE_GAP, FormatProblem.TRAILER_MISMATCH);
        assertThat(missing.problems.get(1).detail()).contains("200 records written, 180 read: 20 missing");
    }

    @Test
    void recordsWhoseDefinitionsWereLostAreReportedNotDelivered() throws IOException {
        StreamBytes s = new StreamBytes(AGENT, "h", 1);
        s.data(0, 0, 0, 0L, new RecordBytes().probeDef(1, "p", "()V"));
        byte[] lostRegistry = s.dataFrame(1, 0, 0, 0L, new RecordBytes().probeDef(2, "q", "()V"));
        lostRegistry[40] ^= 1; // its CRC no longer matches: the frame is skipped
        s.raw(lostRegistry);
        s.data(2, 0, 0, 1L, new RecordBytes().enter(1, 10).enter(2, 11).exit(2, 12).exit(1, 13));
        Outcome o = recover(s.trailer(3, 0, 0, 4, 4).toBytes());
        assertThat(o.times).containsExactly(10L, 13L);
        assertThat(o.kinds()).containsExactly(FormatProblem.CRC_MISMATCH, FormatProblem.SEQUENCE_GAP, FormatProblem.UNDEFINED_ID,
                FormatProblem.UNDEFINED_ID, FormatProblem.TRAILER_MISMATCH);
        assertThat(o.problems.get(2).detail()).contains("undefined probe id 2", "the record skipped");
    }

    @Test
    void aBadBlockSkipsOnlyTheRestOfItsBlock() throws IOException {
        StreamBytes s = new StreamBytes(AGENT, "h", 1);
        s.data(0, 0, 0, 0L, new RecordBytes().probeDef(1, "p", "()V"),
                1L, new RecordBytes().enter(1, 1).raw((byte) 0x7F, (byte) 0, (byte) 0).exit(1, 2),
                2L, new RecordBytes().enter(1, 3).exit(1, 4));
        Outcome o = recover(s.toBytes());
        assertThat(o.times).containsExactly(1L, 3L, 4L);
        assertThat(o.kinds()).containsExactly(FormatProblem.UNKNOWN_RECORD_TYPE);
        assertThat(o.problems.get(0).detail()).contains("the rest of the block of thread 1 (16 bytes) skipped");
    }

    @Test
    void aSegmentWithABadStreamHeaderIsSkipped() throws IOException {
        byte[] b = inOrder();
        b[0] = 'x';
        Outcome o = recover(b);
        assertThat(o.kinds()).containsExactly(FormatProblem.BAD_MAGIC);
        assertThat(o.problems.get(0).detail()).endsWith("segment skipped");
        assertThat(o.times).isEmpty();
    }
}
