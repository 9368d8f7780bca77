package io.sonde.format.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.junit.jupiter.api.Test;

/**
 * {@link Lz4Block} against itself and against lz4-java (an independent LZ4 implementation): seeded
 * random inputs of every kind round-trip, each side decodes the other's blocks, and corrupt blocks
 * give a {@link CorruptBlockException}, never an index error or output beyond the given range.
 */
class Lz4BlockTest {
    private static final LZ4Factory REFERENCE = LZ4Factory.safeInstance();

    /** Inputs: empty, tiny, random, runs, repeated phrases, record-like streams; up to 300 KiB. */
    static byte[] input(Random r) {
        int kind = r.nextInt(5);
        int n = r.nextInt(8) == 0 ? r.nextInt(20) : r.nextInt(r.nextBoolean() ? 4096 : 300 * 1024);
        byte[] b = new byte[n];
        switch (kind) {
            case 0:
                r.nextBytes(b);
                break;
            case 1:
                for (int i = 0; i < n; ) {
                    byte v = (byte) r.nextInt(4);
                    int run = 1 + r.nextInt(600);
                    for (int k = 0; k < run && i < n; k++) b[i++] = v;
                }
                break;
            case 2: {
                byte[] phrase = new byte[1 + r.nextInt(40)];
                r.nextBytes(phrase);
                for (int i = 0; i < n; i++) b[i] = r.nextInt(50) == 0 ? (byte) r.nextInt() : phrase[i % phrase.length];
                break;
            }
            default: {
                // ENTER/EXIT-like records: type, small id, slowly growing time
                long t = r.nextLong() >>> 20;
                for (int i = 0; i + 13 <= n; i += 13) {
                    b[i] = (byte) (1 + (i / 13 & 1));
                    b[i + 1] = (byte) r.nextInt(kind == 3 ? 4 : 200);
                    t += r.nextInt(kind == 3 ? 300 : 100_000);
                    for (int k = 0; k < 8; k++) b[i + 5 + k] = (byte) (t >>> (8 * k));
                }
                break;
            }
        }
        return b;
    }

    @Test
    void seededInputsRoundTripAndMatchTheReferenceBothWays() throws Exception {
        Lz4Block lz4 = new Lz4Block(); // one instance throughout: stale hash entries of earlier calls must not matter
        LZ4SafeDecompressor reference = REFERENCE.safeDecompressor();
        Random r = new Random(0x5EED_1234L);
        long packed = 0;
        long referencePacked = 0;
        for (int round = 0; round < 300; round++) {
            byte[] in = input(r);
            int off = r.nextInt(3);
            byte[] src = new byte[off + in.length];
            System.arraycopy(in, 0, src, off, in.length);
            byte[] dst = new byte[1 + Lz4Block.maxCompressedLength(in.length)];
            int c = lz4.compress(src, off, in.length, dst, 1);
            assertThat(c).isLessThanOrEqualTo(Lz4Block.maxCompressedLength(in.length));
            packed += c;

            byte[] back = new byte[in.length];
            assertThat(Lz4Block.decompress(dst, 1, c, back, 0, in.length)).as("round %d", round).isEqualTo(in.length);
            assertThat(back).as("round %d", round).isEqualTo(in);

            byte[] theirs = new byte[in.length];
            assertThat(reference.decompress(dst, 1, c, theirs, 0)).as("reference decodes round %d", round).isEqualTo(in.length);
            assertThat(theirs).isEqualTo(in);

            byte[] refBlock = REFERENCE.fastCompressor().compress(in);
            referencePacked += refBlock.length;
            byte[] mine = new byte[in.length];
            assertThat(Lz4Block.decompress(refBlock, 0, refBlock.length, mine, 0, in.length)).isEqualTo(in.length);
            assertThat(mine).as("decoding the reference's block, round %d", round).isEqualTo(in);
        }
        assertThat(packed).as("compresses about as well as the reference's fast compressor").isLessThan(referencePacked * 11 / 10);
    }

    @Test
    void corruptBlocksFailCleanlyAndNeverWriteOutsideTheRange() {
        Lz4Block lz4 = new Lz4Block();
        Random r = new Random(77);
        int failures = 0;
        for (int round = 0; round < 2000; round++) {
            byte[] in = input(r);
            if (in.length == 0) continue;
            byte[] block = Arrays.copyOf(new byte[0], Lz4Block.maxCompressedLength(in.length));
            int c = lz4.compress(in, 0, in.length, block, 0);
            block = Arrays.copyOf(block, c);
            int how = r.nextInt(3);
            if (how == 0) {
                block[r.nextInt(c)] ^= (byte) (1 + r.nextInt(255));
            } else if (how == 1) {
                block = Arrays.copyOf(block, r.nextInt(c));
            } else {
                for (int k = 0; k < 1 + r.nextInt(8); k++) block[r.nextInt(c)] = (byte) r.nextInt();
            }
            // guard bytes around the output range must stay untouched
            byte[] out = new byte[in.length + 16];
            Arrays.fill(out, (byte) 0x5A);
            try {
                int n = Lz4Block.decompress(block, 0, block.length, out, 8, in.length);
                assertThat(n).isBetween(0, in.length);
            } catch (CorruptBlockException e) {
                failures++;
                assertThat(e.position()).isBetween(0, block.length);
                assertThat(e.getMessage()).contains("at byte " + e.position());
            }
            for (int k = 0; k < 8; k++) {
                assertThat(out[k]).isEqualTo((byte) 0x5A);
                assertThat(out[8 + in.length + k]).isEqualTo((byte) 0x5A);
            }
        }
        assertThat(failures).as("most damage is detected").isGreaterThan(1000);
    }

    @Test
    void aMatchBeforeTheStartOfTheOutputIsRejected() {
        // token: 1 literal, match length 4; literal 'a'; offset 2 (only 1 byte decoded so far)
        byte[] block = {0x10, 'a', 2, 0, 0x00};
        assertThatThrownBy(() -> Lz4Block.decompress(block, 0, block.length, new byte[64], 0, 64))
                .isInstanceOf(CorruptBlockException.class)
                .hasMessageContaining("match offset 2 outside the 1 bytes decoded so far (at byte 2)");
    }
}
