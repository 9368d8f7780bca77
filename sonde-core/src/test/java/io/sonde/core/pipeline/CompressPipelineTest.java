package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.Format;
import io.sonde.format.read.RecordText;
import io.sonde.format.read.SondeReader;
import io.sonde.format.write.StreamHeader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code compress=lz4} end to end through the writer loop: the stream reads to the same records as
 * with {@code compress=off}, DATA frames without definitions go out as COMPRESSED frames, frames
 * with definitions stay DATA, and fewer bytes are written.
 */
@Timeout(60)
class CompressPipelineTest {
    /** Seals every frame it gets and keeps the stream's bytes, as a file writer would. */
    static final class StreamCapture implements Writer {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Byte> types = new ArrayList<>();
        final List<Boolean> definitions = new ArrayList<>();
        private WriterContext context;

        @Override
        public void open(WriterContext context) {
            this.context = context;
            bytes.writeBytes(StreamHeader.bytes());
        }

        @Override
        public synchronized void write(ByteBuffer frame) {
            context.seal(frame);
            byte[] b = new byte[frame.remaining()];
            frame.get(b);
            bytes.writeBytes(b);
            types.add(b[Format.FRAME_OFF_TYPE]);
            int h = (b[Format.FRAME_OFF_HEADER_LENGTH] & 0xFF) | (b[Format.FRAME_OFF_HEADER_LENGTH + 1] & 0xFF) << 8;
            definitions.add(b[Format.FRAME_OFF_TYPE] == Format.FRAME_DATA && b.length >= h + 8
                    && ByteBuffer.wrap(b, h, 8).getLong() == 0L);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** A seeded run of two threads' records over several drains; returns the captured stream. */
    private static StreamCapture run(String compress) throws IOException {
        StreamCapture capture = new StreamCapture();
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("policy", "block-forever", "compress", compress, "frame.bytes", "8192")),
                capture, Identity.of(new UUID(1, 2)), false, true);
        int[] probes = new int[6];
        for (int i = 0; i < probes.length; i++) probes[i] = p.defineProbe("com.example.Service.op" + i, "()V");
        p.manualOpen();
        ThreadBuffer one = p.newBuffer(Thread.currentThread(), 1, "one", 1, 1 << 16);
        ThreadBuffer two = p.newBuffer(Thread.currentThread(), 2, "two", 2, 1 << 16);
        Random r = new Random(19);
        long t = 1_000_000;
        for (int drain = 0; drain < 20; drain++) {
            if (drain == 10) probes[0] = p.defineProbe("com.example.Late.defined", "()V"); // a frame with definitions mid-run
            for (int k = 0; k < 400; k++) {
                ThreadBuffer b = r.nextBoolean() ? one : two;
                int probe = probes[r.nextInt(probes.length)];
                t += 1 + r.nextInt(2000);
                b.enter(probe, t);
                b.exit(probe, t + r.nextInt(500));
            }
            p.manualDrain();
            p.manualEmitFrame();
        }
        p.close();
        assertThat(p.counters().written()).isEqualTo(20 * 400 * 2);
        return capture;
    }

    private static List<String> records(byte[] stream) throws IOException {
        List<String> out = new ArrayList<>();
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(stream), "capture")) {
            while (r.next()) out.add(RecordText.record(r));
        }
        return out;
    }

    @Test
    void compressedStreamsReadToTheSameRecordsInFewerBytes() throws IOException {
        StreamCapture plain = run("off");
        StreamCapture packed = run("lz4");
        assertThat(plain.types).doesNotContain(Format.FRAME_COMPRESSED);
        assertThat(packed.types).contains(Format.FRAME_COMPRESSED);
        // the frames with definitions (the first, and the one after the late definition) stay DATA
        assertThat(packed.definitions.stream().filter(d -> d).count()).isGreaterThanOrEqualTo(2);
        for (int i = 0; i < packed.types.size(); i++) {
            if (packed.definitions.get(i)) assertThat(packed.types.get(i)).isEqualTo(Format.FRAME_DATA);
        }
        List<String> expected = records(plain.bytes.toByteArray());
        assertThat(expected.stream().filter(line -> line.contains(" ENTER ") || line.contains(" EXIT "))).hasSize(20 * 400 * 2);
        assertThat(records(packed.bytes.toByteArray())).isEqualTo(expected);
        assertThat(packed.bytes.size()).isLessThan(plain.bytes.size());
    }
}
