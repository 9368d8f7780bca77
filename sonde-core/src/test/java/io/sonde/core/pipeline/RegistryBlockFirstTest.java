package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Definitions that arrive while the frame being filled already holds thread blocks (a probe first
 * hit between two drains of one frame) go into a registry block at the start of that frame
 * (format 4.1): receivers find the frames carrying definitions by the first block alone (the
 * collector's envelopes), and the compressor leaves those frames uncompressed by the same test.
 * Before, the registry block was appended after the thread blocks. Manual mode: deterministic.
 */
@Timeout(60)
class RegistryBlockFirstTest {
    /** Keeps the stream and the thread ids of each DATA frame's blocks, in order. */
    static final class Blocks extends CapturingWriter {
        final List<List<Long>> threadsPerFrame = new ArrayList<>();

        @Override
        void take(ByteBuffer sealed) {
            ByteBuffer f = sealed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            int start = f.position();
            if (f.get(start + Format.FRAME_OFF_TYPE) == Format.FRAME_DATA) {
                List<Long> threads = new ArrayList<>();
                int at = start + (f.getShort(start + Format.FRAME_OFF_HEADER_LENGTH) & 0xFFFF);
                while (at < f.limit()) {
                    threads.add(f.getLong(at));
                    at += Format.BLOCK_HEADER_BYTES + f.getInt(at + 8);
                }
                threadsPerFrame.add(threads);
            }
            keep(sealed);
        }
    }

    @Test
    void definitionsTakenWhileAFrameHoldsThreadBlocksGoFirstInIt() throws Exception {
        Blocks w = new Blocks();
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("policy", "block-forever", "frame.bytes", "65536")), w,
                Identity.of(new UUID(7, 8)), false, true);
        int first = p.defineProbe("com.example.Shop.open", "()V");
        p.manualOpen();
        ThreadBuffer a = p.newBuffer(Thread.currentThread(), 1, "main", 1, 1 << 16);
        a.enter(first, 1_000);
        a.exit(first, 1_001);
        p.manualDrain(); // the frame: registry block (thread "main"), block of thread 1
        int second = p.defineProbe("com.example.Shop.buy", "()V");
        a.enter(second, 1_002);
        a.exit(second, 1_003);
        p.manualDrain(); // the same frame: the new probe's definition, thread 1 again
        p.manualEmitFrame();
        p.close();

        assertThat(w.threadsPerFrame).as("registry frame at open, then one frame").hasSize(2);
        assertThat(w.threadsPerFrame.get(1)).as("one registry block, first").containsExactly(0L, 1L, 1L);
        List<String> probes = new ArrayList<>();
        try (SondeReader r = SondeReader.of(w.stream(), "capture")) {
            while (r.next()) {
                if (r.type() == Format.ENTER) probes.add(r.probeName());
            }
        }
        assertThat(probes).containsExactly("com.example.Shop.open", "com.example.Shop.buy");
    }

    @Test
    void definitionsThatDoNotFitBeforeTheThreadBlocksOpenTheNextFrame() throws Exception {
        Blocks w = new Blocks();
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("policy", "block-forever", "frame.bytes", "4096")), w,
                Identity.of(new UUID(7, 9)), false, true);
        p.manualOpen();
        ThreadBuffer a = p.newBuffer(Thread.currentThread(), 1, "main", 1, 1 << 16);
        int probe = p.defineProbe("com.example.Shop.open", "()V");
        long t = 1_000;
        for (int i = 0; i < 140; i++) { // 280 records of 13 bytes: most of the frame
            a.enter(probe, t++);
            a.exit(probe, t++);
        }
        p.manualDrain();
        int big = p.defineProbe("com.example.Shop." + "x".repeat(300), "()V");
        a.enter(big, t++);
        a.exit(big, t++);
        p.manualDrain();
        p.manualEmitFrame();
        p.close();

        for (List<Long> frame : w.threadsPerFrame) {
            assertThat(frame.indexOf(0L)).as("a registry block only at the start of a frame: %s", w.threadsPerFrame).isLessThanOrEqualTo(0);
        }
        long records = 0;
        try (SondeReader r = SondeReader.of(w.stream(), "capture")) {
            while (r.next()) {
                if (r.type() == Format.ENTER || r.type() == Format.EXIT) records++;
            }
        }
        assertThat(records).isEqualTo(282);
    }
}
