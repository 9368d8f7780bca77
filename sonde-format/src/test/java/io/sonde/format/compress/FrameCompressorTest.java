package io.sonde.format.compress;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which frames {@link FrameCompressor} compresses, and that it does not allocate once warm. */
class FrameCompressorTest {
    private static final StreamBytes STREAM = new StreamBytes(new UUID(3, 4), "h", 1, 2, 0);

    /** An unsealed frame as the writer loop hands it over: the bytes in a direct buffer, position at the end. */
    private static ByteBuffer unsealed(byte[] frame) {
        ByteBuffer b = ByteBuffer.allocateDirect(frame.length + 100).order(ByteOrder.LITTLE_ENDIAN);
        b.put(frame);
        return b;
    }

    private static byte[] loopFrame(int pairs, Random r) {
        RecordBytes rb = new RecordBytes();
        long t = 1_000_000;
        for (int i = 0; i < pairs; i++) {
            t += r.nextInt(300);
            rb.enter(1 + r.nextInt(3), t).exit(1 + r.nextInt(3), t + r.nextInt(100));
        }
        return STREAM.dataFrame(5, 0, 0, 1L, rb);
    }

    @Test
    void framesWithDefinitionsTinyFramesAndIncompressibleFramesStayAsTheyAre() {
        FrameCompressor c = new FrameCompressor();
        ByteBuffer defs = unsealed(STREAM.dataFrame(0, 0, 0, 0L, new RecordBytes().probeDef(1, "a.B.c".repeat(40), "()V"),
                1L, new RecordBytes().enter(1, 5).exit(1, 6)));
        assertThat(c.compress(defs)).isSameAs(defs);
        ByteBuffer tiny = unsealed(STREAM.dataFrame(1, 0, 0, 1L, new RecordBytes().enter(1, 5)));
        assertThat(c.compress(tiny)).isSameAs(tiny);
        byte[] noise = new byte[4000];
        new Random(5).nextBytes(noise);
        ByteBuffer random = unsealed(STREAM.dataFrame(2, 0, 0, 1L, new RecordBytes().raw(noise)));
        assertThat(c.compress(random)).isSameAs(random);
        assertThat(c.framesCompressed()).isZero();

        ByteBuffer loop = unsealed(loopFrame(500, new Random(6)));
        int before = loop.position();
        ByteBuffer out = c.compress(loop);
        assertThat(out).isNotSameAs(loop);
        assertThat(out.get(Format.FRAME_OFF_TYPE)).isEqualTo(Format.FRAME_COMPRESSED);
        assertThat(out.position()).isLessThan(before * 3 / 4);
        assertThat(loop.position()).as("the DATA frame is left as it was").isEqualTo(before);
        assertThat(c.bytesBefore()).isEqualTo(before);
        assertThat(c.bytesAfter()).isEqualTo(out.position());
    }

    @Test
    void aWarmCompressorAllocatesNothingPerFrame() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        FrameCompressor c = new FrameCompressor();
        ByteBuffer[] frames = new ByteBuffer[8];
        Random r = new Random(8);
        for (int i = 0; i < frames.length; i++) frames[i] = unsealed(loopFrame(2000 - 100 * i, r));
        for (int i = 0; i < 200; i++) c.compress(frames[i % frames.length]); // warm: buffers grown, code compiled
        long id = Thread.currentThread().getId();
        long start = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 400; i++) c.compress(frames[i % frames.length]);
        long allocated = threads.getThreadAllocatedBytes(id) - start;
        // a hash table or buffer per frame would be >= 64 KiB each, 25 MiB in all
        assertThat(allocated).as("bytes allocated by 400 compressions").isLessThan(64 * 1024);
    }
}
