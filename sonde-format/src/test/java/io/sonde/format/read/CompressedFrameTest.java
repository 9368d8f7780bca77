package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.CompressedPayload;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * COMPRESSED frames (format 2.4, docs/format.md section 4.4) through the reader: seeded random
 * streams read the same compressed and uncompressed, and a COMPRESSED frame whose payload cannot be
 * expanded (CRC intact: a writer's bug, not transport damage) is a clear error naming the source and
 * the offset, which in recovery mode loses only that frame.
 */
class CompressedFrameTest {
    private static final UUID AGENT = new UUID(0x2_4L, 0xC0DEL);

    /** One seeded stream: its frames (stream header excluded) and the data records in each frame. */
    private static final class Stream {
        final List<byte[]> frames = new ArrayList<>();
        final List<Integer> dataRecords = new ArrayList<>();

        byte[] bytes(boolean compress, int corruptFrame, Random r) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(StreamBytes.streamHeader(2, 0));
            for (int i = 0; i < frames.size(); i++) {
                byte[] f = frames.get(i);
                if (compress && f[Format.FRAME_OFF_TYPE] == Format.FRAME_DATA) {
                    f = Frames.compressed(f);
                }
                if (i == corruptFrame) {
                    f = corruptPayload(f, r);
                }
                out.writeBytes(f);
            }
            return out.toByteArray();
        }
    }

    /** Registry frame, then 1..12 DATA frames of 1..3 threads with random ENTER/EXIT/EVENT/GAP records, trailer. */
    private static Stream randomStream(Random r) {
        Stream s = new Stream();
        StreamBytes b = new StreamBytes(AGENT, "host-z", 99, 2, 0);
        long seq = 0;
        long mono = r.nextLong() >>> 8;
        RecordBytes defs = new RecordBytes().eventDef(1, "tick", 3, "n");
        for (int p = 1; p <= 5; p++) defs.probeDef(p, "com.example.C.m" + p, "()V");
        for (int t = 1; t <= 3; t++) defs.threadDef(t, "thread-" + t);
        s.frames.add(b.dataFrame(seq++, 0, mono, 0L, defs));
        s.dataRecords.add(0);
        long total = 0;
        int frames = 1 + r.nextInt(12);
        for (int f = 0; f < frames; f++) {
            List<Object> blocks = new ArrayList<>();
            int records = 0;
            for (int t = 1; t <= 1 + r.nextInt(3); t++) {
                RecordBytes rb = new RecordBytes();
                int n = r.nextInt(400);
                for (int k = 0; k < n; k++) {
                    mono += 1 + r.nextInt(r.nextBoolean() ? 50 : 100_000);
                    int kind = r.nextInt(10);
                    if (kind == 0) {
                        rb.event(1, mono, r.nextLong());
                        records++;
                    } else if (kind == 1) {
                        rb.gap(r.nextInt(1000));
                    } else {
                        int probe = 1 + r.nextInt(5);
                        if (kind % 2 == 0) rb.enter(probe, mono); else rb.exit(probe, mono);
                        records++;
                    }
                }
                blocks.add((long) t);
                blocks.add(rb);
            }
            s.frames.add(b.dataFrame(seq++, 0, mono, blocks.toArray()));
            s.dataRecords.add(records);
            total += records;
        }
        StreamBytes tail = new StreamBytes(AGENT, "host-z", 99, 2, 0).trailer(seq, 0, mono, total, total);
        byte[] t = tail.toBytes();
        byte[] trailer = new byte[t.length - Format.STREAM_HEADER_BYTES];
        System.arraycopy(t, Format.STREAM_HEADER_BYTES, trailer, 0, trailer.length);
        s.frames.add(trailer);
        s.dataRecords.add(0);
        return s;
    }

    /** Damages the compressed bytes of a COMPRESSED frame and seals it again, so only expanding can notice. */
    private static byte[] corruptPayload(byte[] frame, Random r) {
        byte[] f = frame.clone();
        int h = (f[Format.FRAME_OFF_HEADER_LENGTH] & 0xFF) | (f[Format.FRAME_OFF_HEADER_LENGTH + 1] & 0xFF) << 8;
        int data = h + CompressedPayload.DATA;
        int how = r.nextInt(3);
        if (how == 0) {
            // declared expanded length off by one
            int at = h + CompressedPayload.ORIGINAL_LENGTH;
            Frames.putU32(f, at, Frames.u32(f, at) + (r.nextBoolean() ? 1 : -1));
        } else if (how == 1) {
            // cut the compressed data short (the frame shrinks with it)
            int cut = 1 + r.nextInt(Math.min(8, f.length - data));
            byte[] g = new byte[f.length - cut];
            System.arraycopy(f, 0, g, 0, g.length);
            Frames.putU32(g, Format.FRAME_OFF_LENGTH, g.length);
            f = g;
        } else {
            f[h + CompressedPayload.CODEC] = 7; // an unknown codec
        }
        Frames.fixCrc(f, 0);
        return f;
    }

    private static List<String> read(byte[] bytes, List<FormatException> problems) throws IOException {
        List<String> out = new ArrayList<>();
        SondeReader reader = SondeReader.of(new ByteArrayInputStream(bytes), "stream.sonde");
        if (problems != null) reader.recover(problems::add);
        try (reader) {
            while (reader.next()) {
                out.add(RecordText.record(reader));
            }
        }
        return out;
    }

    @Test
    void seededStreamsReadTheSameCompressedAndUncompressed() throws IOException {
        Random r = new Random(24);
        int compressedFrames = 0;
        for (int round = 0; round < 60; round++) {
            Stream s = randomStream(r);
            byte[] plain = s.bytes(false, -1, r);
            byte[] packed = s.bytes(true, -1, r);
            compressedFrames += compressedFrameIndexes(packed).size();
            assertThat(read(packed, null)).as("round %d", round).isEqualTo(read(plain, null));
        }
        assertThat(compressedFrames).as("most data frames shrink").isGreaterThan(200);
    }

    @Test
    void aCorruptCompressedPayloadIsAClearErrorAndLosesOnlyItsFrame() throws IOException {
        Random r = new Random(2404);
        int checked = 0;
        for (int round = 0; round < 60; round++) {
            Stream s = randomStream(r);
            byte[] packed = s.bytes(true, -1, r);
            List<Integer> candidates = compressedFrameIndexes(packed);
            if (candidates.isEmpty()) continue;
            int victim = candidates.get(r.nextInt(candidates.size()));
            long seed = r.nextLong();
            byte[] damaged = s.bytes(true, victim, new Random(seed));
            long frameStart = Frames.offsets(damaged).get(victim);
            long frameEnd = frameStart + Frames.u32(damaged, (int) frameStart + Format.FRAME_OFF_LENGTH);

            assertThatThrownBy(() -> read(damaged, null))
                    .isInstanceOfSatisfying(FormatException.class, e -> {
                        assertThat(e.problem()).isEqualTo(FormatProblem.BAD_COMPRESSED_PAYLOAD);
                        assertThat(e.source()).isEqualTo("stream.sonde");
                        assertThat(e.offset()).isBetween(frameStart, frameEnd);
                        assertThat(e.getMessage()).contains("stream.sonde").contains("COMPRESSED frame");
                    });

            List<FormatException> problems = new ArrayList<>();
            List<String> recovered = read(damaged, problems);
            List<String> all = read(packed, null);
            int lost = s.dataRecords.get(victim);
            assertThat(problems).extracting(FormatException::problem)
                    .contains(FormatProblem.BAD_COMPRESSED_PAYLOAD)
                    .containsOnly(FormatProblem.BAD_COMPRESSED_PAYLOAD, FormatProblem.TRAILER_MISMATCH);
            long dataRead = recovered.stream().filter(line -> !line.contains("GAP")).count();
            long dataAll = all.stream().filter(line -> !line.contains("GAP")).count();
            assertThat(dataAll - dataRead).as("round %d: only the records of frame %d are lost", round, victim)
                    .isEqualTo(lost);
            checked++;
        }
        assertThat(checked).isGreaterThan(40);
    }

    /** Indexes (in stream order, from 0) of the COMPRESSED frames of a stream. */
    private static List<Integer> compressedFrameIndexes(byte[] stream) {
        List<Integer> offsets = Frames.offsets(stream);
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < offsets.size(); i++) {
            if (stream[offsets.get(i) + Format.FRAME_OFF_TYPE] == Format.FRAME_COMPRESSED) indexes.add(i);
        }
        return indexes;
    }
}
