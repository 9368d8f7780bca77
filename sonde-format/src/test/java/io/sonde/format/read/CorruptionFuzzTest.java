package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenScenarios;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded random corruptions of the golden files: bit flips, truncations at every
 * offset, inserted and deleted bytes, length fields set to extreme values, other versions; and the
 * same mutations with the frame's length and CRC patched afterwards so that they reach the record
 * decoder instead of being caught by the CRC. Reading each input (touching every accessor) must
 * end within a time guard and raise nothing but FormatException.
 */
class CorruptionFuzzTest {
    private static final long SEED = 0x50DE_F022L;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-reader");
        t.setDaemon(true);
        return t;
    });
    private int cases;
    private int formatErrors;
    private static final java.util.Set<FormatProblem> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @AfterEach
    void stop() {
        worker.shutdownNow();
    }

    @Test
    void randomCorruptionsOfTheGoldenFilesOnlyEverRaiseFormatException() throws Exception {
        Random rnd = new Random(SEED);
        for (Map.Entry<String, byte[]> golden : GoldenScenarios.all().entrySet()) {
            String name = golden.getKey();
            byte[] original = golden.getValue();
            List<Integer> frames = Frames.offsets(original);

            for (int cut = 0; cut < original.length; cut++) {
                check(name + " truncated at " + cut, Arrays.copyOf(original, cut));
            }
            for (int i = 0; i < 400; i++) {
                byte[] b = original.clone();
                int flips = 1 + rnd.nextInt(3);
                StringBuilder what = new StringBuilder(name + " bit flips");
                for (int f = 0; f < flips; f++) {
                    int at = rnd.nextInt(b.length);
                    int bit = rnd.nextInt(8);
                    b[at] ^= (byte) (1 << bit);
                    what.append(' ').append(at).append(':').append(bit);
                }
                check(what.toString(), b);
            }
            for (int i = 0; i < 300; i++) {
                // a random byte changed inside a frame, then the CRC fixed: reaches the decoder
                byte[] b = original.clone();
                int frame = frames.get(rnd.nextInt(frames.size()));
                int len = Frames.u32(b, frame + 4);
                int at = frame + 12 + rnd.nextInt(len - 12);
                b[at] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : b[at] ^ (1 << rnd.nextInt(8)));
                Frames.fixCrc(b, frame);
                check(name + " byte " + at + " changed, CRC fixed", b);
            }
            for (int i = 0; i < 200; i++) {
                boolean insert = rnd.nextBoolean();
                int count = 1 + rnd.nextInt(8);
                int at = rnd.nextInt(original.length);
                byte[] b = insert ? insert(original, at, count, rnd) : delete(original, at, count);
                check(name + (insert ? " inserted " : " deleted ") + count + " at " + at, b);
                // the same, with the enclosing frame's length and CRC patched
                int frame = enclosing(frames, at);
                if (frame >= 0 && at >= frame + 12) {
                    byte[] p = b.clone();
                    Frames.putU32(p, frame + 4, Frames.u32(p, frame + 4) + (insert ? count : -count));
                    Frames.fixCrc(p, frame);
                    check(name + (insert ? " inserted " : " deleted ") + count + " at " + at + ", length and CRC fixed", p);
                }
            }
            int[] lengths = {0, 1, 11, 12, 61, 62, 63, 100, Format.MAX_FRAME_BYTES, Format.MAX_FRAME_BYTES + 1, Integer.MAX_VALUE, -1};
            for (int frame : frames) {
                for (int len : lengths) {
                    byte[] b = original.clone();
                    Frames.putU32(b, frame + 4, len);
                    check(name + " frame " + frame + " length " + len, b);
                    Frames.fixCrc(b, frame);
                    check(name + " frame " + frame + " length " + len + ", CRC fixed", b);
                }
                // block length fields of DATA frames set to extreme values, CRC fixed
                if (original[frame + 12] == Format.FRAME_DATA) {
                    int payload = (original[frame + 14] & 0xFF) | (original[frame + 15] & 0xFF) << 8;
                    for (int len : lengths) {
                        byte[] b = original.clone();
                        Frames.putU32(b, frame + payload + 8, len);
                        Frames.fixCrc(b, frame);
                        check(name + " frame " + frame + " first block length " + len, b);
                    }
                }
            }
            for (int major : new int[] {0, 2, 255, 65535}) {
                byte[] b = original.clone();
                b[8] = (byte) major;
                b[9] = (byte) (major >>> 8);
                check(name + " major " + major, b);
            }
            byte[] minor = original.clone();
            minor[10] = 7;
            check(name + " minor 7", minor);
        }
        assertThat(cases).isGreaterThan(5000);
        assertThat(formatErrors).isGreaterThan(cases / 2);
        // the patched-CRC mutations must reach the record decoder, not only the envelope checks
        assertThat(SEEN).contains(FormatProblem.TRUNCATED, FormatProblem.CRC_MISMATCH, FormatProblem.BAD_FRAME_LENGTH,
                FormatProblem.UNSUPPORTED_VERSION, FormatProblem.BLOCK_OVERRUN, FormatProblem.RECORD_OVERRUN,
                FormatProblem.UNKNOWN_RECORD_TYPE, FormatProblem.UNDEFINED_ID);
    }

    private static int enclosing(List<Integer> frames, int at) {
        int found = -1;
        for (int f : frames) {
            if (f <= at) {
                found = f;
            }
        }
        return found;
    }

    private static byte[] insert(byte[] original, int at, int count, Random rnd) {
        byte[] b = new byte[original.length + count];
        System.arraycopy(original, 0, b, 0, at);
        for (int i = 0; i < count; i++) {
            b[at + i] = (byte) rnd.nextInt(256);
        }
        System.arraycopy(original, at, b, at + count, original.length - at);
        return b;
    }

    private static byte[] delete(byte[] original, int at, int count) {
        int n = Math.min(count, original.length - at);
        byte[] b = new byte[original.length - n];
        System.arraycopy(original, 0, b, 0, at);
        System.arraycopy(original, at + n, b, at, original.length - at - n);
        return b;
    }

    /** Reads the input on the worker thread under a time guard; only FormatException may escape. */
    private void check(String what, byte[] input) throws InterruptedException {
        cases++;
        Future<Boolean> result = worker.submit(() -> readAll(input));
        try {
            if (result.get(10, TimeUnit.SECONDS)) {
                formatErrors++;
            }
        } catch (TimeoutException e) {
            result.cancel(true);
            fail("reader did not finish within 10 s: " + what);
        } catch (ExecutionException e) {
            throw new AssertionError("reader raised something other than FormatException: " + what, e.getCause());
        }
    }

    /** Reads everything, touching every accessor; returns true if a FormatException ended it. */
    private static boolean readAll(byte[] input) throws IOException {
        SondeReader r = SondeReader.of(new ByteArrayInputStream(input), "fuzz").includeDefinitions(true);
        try {
            ReaderFuzz.touchAll(r);
            assertThat(r.end()).isNotNull();
            assertThat(r.end().kind()).isNotEqualTo(ReadEnd.Kind.ERROR);
            return false;
        } catch (FormatException e) {
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.ERROR);
            assertThat(r.end().error()).isSameAs(e);
            SEEN.add(e.problem());
            assertThat(e.getMessage()).startsWith("fuzz: offset ");
            assertThat(e.offset()).isBetween(0L, (long) input.length);
            return true;
        }
    }

}
