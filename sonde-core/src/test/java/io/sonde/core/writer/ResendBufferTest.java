package io.sonde.core.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The buffer of unacknowledged frames against a plain queue of copies (seeded random sizes, wrapping at the ring's end). */
class ResendBufferTest {
    static ByteBuffer frame(long seq, int length) {
        ByteBuffer b = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length; i++) b.put((byte) (seq * 31 + i));
        b.flip();
        return b;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.limit()];
        b.get(0, a);
        return a;
    }

    @Test
    void holdsExactlyTheFramesNotYetReleasedInOrderWithinItsBudget() throws IOException {
        Random rnd = new Random(12);
        ResendBuffer buf = new ResendBuffer(10_000);
        ArrayDeque<long[]> model = new ArrayDeque<>(); // {seq, length}
        long seq = 0;
        long modelBytes = 0;
        for (int step = 0; step < 5_000; step++) {
            if (rnd.nextInt(3) > 0) {
                int length = 1 + rnd.nextInt(3_000);
                boolean fits = model.isEmpty() || modelBytes + length <= 10_000;
                assertThat(buf.fits(length)).isEqualTo(fits);
                if (fits) {
                    buf.add(seq, frame(seq, length));
                    model.add(new long[] {seq, length});
                    modelBytes += length;
                    seq++;
                }
            } else if (!model.isEmpty()) {
                long upTo = model.peekFirst()[0] + rnd.nextInt(3);
                int freed = 0;
                while (!model.isEmpty() && model.peekFirst()[0] <= upTo) {
                    modelBytes -= model.removeFirst()[1];
                    freed++;
                }
                assertThat(buf.releaseUpTo(upTo)).isEqualTo(freed);
            }
            assertThat(buf.frames()).isEqualTo(model.size());
            assertThat(buf.bytes()).isEqualTo(modelBytes);
            assertThat(buf.firstSequence()).isEqualTo(model.isEmpty() ? -1 : model.peekFirst()[0]);
            if (step % 50 == 0) {
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                for (long[] f : model) expected.writeBytes(bytes(frame(f[0], (int) f[1])));
                ByteArrayOutputStream sent = new ByteArrayOutputStream();
                buf.sendAll(sent);
                assertThat(sent.toByteArray()).isEqualTo(expected.toByteArray());
            }
        }
    }

    @Test
    void aFrameLargerThanTheBudgetIsKeptAloneAndTheBudgetComesBack() throws IOException {
        ResendBuffer buf = new ResendBuffer(100);
        assertThat(buf.fits(500)).isTrue();
        buf.add(0, frame(0, 500));
        assertThat(buf.fits(1)).isFalse();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        buf.sendNewest(sent);
        assertThat(sent.toByteArray()).isEqualTo(bytes(frame(0, 500)));
        buf.releaseUpTo(0);
        buf.add(1, frame(1, 60));
        assertThat(buf.capacity()).isEqualTo(100);
        assertThat(buf.fits(41)).isFalse();
    }
}
