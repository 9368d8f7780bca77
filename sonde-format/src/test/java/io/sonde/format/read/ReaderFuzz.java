package io.sonde.format.read;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenScenarios;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * A seeded, hand-rolled fuzzer of the frame decoder and the reader, shared by the bounded test in
 * the normal suite ({@link ReaderFuzzTest}) and the long run ({@link ReaderFuzzMain}). Inputs are
 * mutations of a small corpus (the golden streams and a generated stream of twelve frames): bit
 * flips, overwritten runs (64 random bytes, as a damaged disk block), cuts, inserted and deleted
 * bytes, extreme length fields, false frame magics, frames dropped, duplicated, swapped or
 * spliced from another stream, and each of these again with the CRC of the enclosing frame
 * patched so that the damage reaches the record decoder. Input i of seed s is a function of (s,
 * i) alone, so any input can be reproduced.
 *
 * <p>Each input is read twice, touching every accessor: strictly (it must be read to its end, or
 * rejected with a {@link FormatException} whose offset lies in the input) and in recovery mode
 * (it must be read to its end, every problem with an offset in the input, at least one problem if
 * the strict read rejected it). Anything else thrown is a crash. The bytes allocated by the
 * reading thread per input are measured against {@link #allocationBound(int)}.
 */
final class ReaderFuzz {
    /** The outcome classes of one input. */
    enum Outcome {
        /** The strict read reached the end of the input (complete or without trailer). */
        READ_FULLY,
        /** The strict read stopped at a FormatException naming an offset inside the input. */
        REJECTED_WITH_OFFSET
    }

    /** Fixed part of the allocation bound: the frame buffer's 64 KiB start, the reader objects, JIT noise. */
    static final long ALLOCATION_BASE = 512 * 1024;
    /** Per input byte: the buffer may double past the input, each problem and record costs a few objects. */
    static final long ALLOCATION_PER_BYTE = 4 * 1024;

    private final List<byte[]> corpus = corpus();
    private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final long seed;

    long readFully;
    long rejected;
    long problemsReported;
    long largestAllocation;
    long largestInput;

    ReaderFuzz(long seed) {
        this.seed = seed;
    }

    /** The most bytes reading an input of this length (both reads) may allocate. */
    static long allocationBound(int inputLength) {
        return ALLOCATION_BASE + ALLOCATION_PER_BYTE * inputLength;
    }

    /** Input number i of this seed (deterministic). */
    byte[] input(long i) {
        Random rnd = new Random(seed * 0x9E3779B97F4A7C15L + i);
        byte[] b = corpus.get(rnd.nextInt(corpus.size())).clone();
        int rounds = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 0);
        for (int r = 0; r < rounds; r++) {
            b = mutate(b, rnd);
        }
        return b;
    }

    /** Input index being checked and when its check began (read by a watchdog to find a hang). */
    volatile long current = -1;
    volatile long currentStartNanos;

    /**
     * Checks inputs from, from+1, ... until count inputs are done or the deadline passes; returns
     * how many were checked. A violation is thrown as an AssertionError naming seed and index.
     */
    long run(long from, long count, long deadlineNanos) {
        long done = 0;
        for (long i = from; done < count && System.nanoTime() < deadlineNanos; i++, done++) {
            byte[] input = input(i);
            currentStartNanos = System.nanoTime();
            current = i;
            try {
                check(input);
            } catch (AssertionError e) {
                throw new AssertionError("fuzz input " + i + " of seed " + seed + " (" + input.length + " bytes: " + hex(input) + "): "
                        + e.getMessage(), e);
            }
        }
        current = -1;
        return done;
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(2 * b.length);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
        }
        return s.toString();
    }

    /** Reads one input both ways and checks the properties; throws AssertionError on a violation. */
    Outcome check(byte[] input) {
        long before = threads.getCurrentThreadAllocatedBytes();
        Outcome outcome;
        FormatException strictError;
        try {
            strictError = readStrictly(input);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("strict read raised " + e + " (not a FormatException)", e);
        }
        List<FormatException> problems = new ArrayList<>();
        try {
            readRecovering(input, problems);
        } catch (IOException | RuntimeException e) {
            throw new AssertionError("recovering read raised " + e, e);
        }
        if (strictError != null) {
            require(strictError.offset() >= 0 && strictError.offset() <= input.length, "strict error offset outside the input: " + strictError);
            require(!problems.isEmpty(), "strict read rejected the input (" + strictError.getMessage() + ") but recovery reported no problem");
            outcome = Outcome.REJECTED_WITH_OFFSET;
            rejected++;
        } else {
            outcome = Outcome.READ_FULLY;
            readFully++;
        }
        for (FormatException p : problems) {
            require(p.offset() >= 0 && p.offset() <= input.length, "problem offset outside the input: " + p.getMessage());
        }
        problemsReported += problems.size();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        largestAllocation = Math.max(largestAllocation, allocated);
        largestInput = Math.max(largestInput, input.length);
        require(allocated <= allocationBound(input.length),
                "reading " + input.length + " bytes allocated " + allocated + " bytes, over the bound " + allocationBound(input.length));
        return outcome;
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** Returns the FormatException that stopped the strict read, or null if it reached the end. */
    private static FormatException readStrictly(byte[] input) throws IOException {
        SondeReader r = SondeReader.of(new ByteArrayInputStream(input), "fuzz").includeDefinitions(true);
        try {
            touchAll(r);
            require(r.end() != null && r.end().kind() != ReadEnd.Kind.ERROR, "strict read ended without error but end() is " + r.end());
            return null;
        } catch (FormatException e) {
            require(r.end() != null && r.end().kind() == ReadEnd.Kind.ERROR && r.end().error() == e, "end() does not name the error");
            require(!r.next(), "next() after an error returned true");
            return e;
        }
    }

    private static void readRecovering(byte[] input, List<FormatException> problems) throws IOException {
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(input), "fuzz").includeDefinitions(true).recover(problems::add)) {
            touchAll(r);
            require(r.end() != null && r.end().kind() != ReadEnd.Kind.ERROR, "recovering read ended with " + r.end());
            require(r.problemCount() == problems.size(), "problemCount " + r.problemCount() + " but " + problems.size() + " reported");
        }
    }

    /** Reads to the end, calling every accessor that applies to each record (and the trailer's). */
    static void touchAll(SondeReader r) throws IOException {
        long sink = 0;
        while (r.next()) {
            sink += r.threadId() + r.recordOffset() + r.frame().sequence() + r.frame().host().length();
            String ignored = r.threadName();
            byte t = r.type();
            if (t >= Format.ENTER && t <= Format.EXIT_EXCEPTION_CPU) {
                sink += r.probeId() + r.time() + r.wallTime() + r.probeName().length() + r.probeSignature().length();
                if (r.hasCpuTime()) {
                    sink += r.cpuTime();
                }
                if (r.isExceptionExit()) {
                    sink += r.exceptionClass().length();
                }
            } else if (t == Format.EVENT) {
                for (int i = 0; i < r.eventType().fieldCount(); i++) {
                    sink += String.valueOf(r.fieldValue(i)).length();
                }
            } else if (t == Format.TRACE_START) {
                sink += r.traceId() + r.parentTraceId() + r.parentOrderIndex();
            } else if (t == Format.GAP) {
                sink += r.gapCount();
            } else {
                sink += r.definedId() + String.valueOf(r.definedName()).length();
            }
        }
        if (r.trailer() != null) {
            sink += r.trailer().droppedTotal() + r.trailer().toString().length();
        }
        if (sink == 42) {
            r.end(); // keeps the reads from being optimised away
        }
    }

    // ================================================================== corpus and mutations

    private static List<byte[]> corpus() {
        List<byte[]> c = new ArrayList<>(GoldenScenarios.all().values());
        StreamBytes s = new StreamBytes(new UUID(5, 6), "fuzz-host", 99);
        s.data(0, 1000, 100, 0L, new RecordBytes().probeDef(1, "a.B.c", "()V").probeDef(2, "a.B.d", "(I)J").stringDef(1, "x.Error")
                .threadDef(1, "t1").threadDef(2, "t2").eventDef(1, "ev", Format.FIELD_BOOLEAN, "ok", Format.FIELD_STRING, "s"));
        for (int f = 1; f <= 10; f++) {
            RecordBytes a = new RecordBytes().traceStart(f, 0, -1).enter(1, 10L * f).enterCpu(2, 10L * f + 1, 5).exitCpu(2, 10L * f + 2, 6)
                    .event(1, 10L * f + 3, true, RecordBytes.str(1)).exitException(1, 10L * f + 4, 1);
            RecordBytes b = new RecordBytes().gap(3).traceStart(100 + f, f, 0).enter(2, 10L * f).exit(2, 10L * f + 1);
            s.data(f, 1000 + f, 100 + f, 1L, a, 2L, b);
        }
        c.add(s.trailer(11, 2000, 200, 82, 80, 1, 2L).toBytes());
        return c;
    }

    private byte[] mutate(byte[] original, Random rnd) {
        byte[] b = original.clone();
        List<Integer> frames = frames(b);
        switch (rnd.nextInt(12)) {
            case 0: { // bit flips
                int n = 1 + rnd.nextInt(4);
                for (int i = 0; i < n && b.length > 0; i++) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
                return b;
            }
            case 1: { // a run of random bytes, e.g. a damaged block
                int n = Math.min(b.length, rnd.nextBoolean() ? 64 : 1 + rnd.nextInt(16));
                int at = b.length == n ? 0 : rnd.nextInt(b.length - n);
                for (int i = 0; i < n; i++) {
                    b[at + i] = (byte) rnd.nextInt(256);
                }
                return b;
            }
            case 2: // cut
                return Arrays.copyOf(b, rnd.nextInt(b.length + 1));
            case 3: { // insert random bytes, or a false frame magic followed by random bytes
                int at = rnd.nextInt(b.length + 1);
                byte[] ins = new byte[1 + rnd.nextInt(24)];
                rnd.nextBytes(ins);
                if (rnd.nextBoolean() && ins.length >= 8) {
                    Frames.putU32(ins, 0, Format.FRAME_MAGIC);
                }
                return splice(b, at, 0, ins);
            }
            case 4: { // delete bytes
                int at = rnd.nextInt(b.length + 1);
                return splice(b, at, Math.min(b.length - at, 1 + rnd.nextInt(24)), new byte[0]);
            }
            case 5: { // extreme length field
                if (frames.isEmpty()) {
                    return b;
                }
                int[] lengths = {0, 1, 61, 62, 63, Format.MAX_FRAME_BYTES, Format.MAX_FRAME_BYTES + 1, -1, 1 << 20, 70_000};
                int f = frames.get(rnd.nextInt(frames.size()));
                Frames.putU32(b, f + 4, lengths[rnd.nextInt(lengths.length)]);
                if (rnd.nextBoolean()) {
                    Frames.fixCrc(b, f);
                }
                return b;
            }
            case 6: // drop a frame
            case 7: { // duplicate a frame
                if (frames.isEmpty()) {
                    return b;
                }
                int k = rnd.nextInt(frames.size());
                int f = frames.get(k);
                int end = k + 1 < frames.size() ? frames.get(k + 1) : b.length;
                byte[] frame = Arrays.copyOfRange(b, f, end);
                return splice(b, f, rnd.nextBoolean() ? frame.length : 0, rnd.nextBoolean() ? frame : new byte[0]);
            }
            case 8: { // swap two adjacent frames
                if (frames.size() < 2) {
                    return b;
                }
                int k = rnd.nextInt(frames.size() - 1);
                int f = frames.get(k);
                int g = frames.get(k + 1);
                int end = k + 2 < frames.size() ? frames.get(k + 2) : b.length;
                byte[] first = Arrays.copyOfRange(b, f, g);
                byte[] second = Arrays.copyOfRange(b, g, end);
                byte[] both = new byte[first.length + second.length];
                System.arraycopy(second, 0, both, 0, second.length);
                System.arraycopy(first, 0, both, second.length, first.length);
                return splice(b, f, end - f, both);
            }
            case 9: { // splice in a frame of another stream of the corpus
                byte[] other = corpus.get(rnd.nextInt(corpus.size()));
                List<Integer> of = frames(other);
                if (of.isEmpty()) {
                    return b;
                }
                int k = rnd.nextInt(of.size());
                int end = k + 1 < of.size() ? of.get(k + 1) : other.length;
                int at = frames.isEmpty() || rnd.nextInt(4) == 0 ? rnd.nextInt(b.length + 1) : frames.get(rnd.nextInt(frames.size()));
                return splice(b, at, 0, Arrays.copyOfRange(other, of.get(k), end));
            }
            default: { // change bytes inside a frame, then patch its CRC: the damage reaches the record decoder
                if (frames.isEmpty()) {
                    return b;
                }
                int f = frames.get(rnd.nextInt(frames.size()));
                int len = Frames.u32(b, f + 4);
                if (len <= 12 || f + len > b.length) {
                    return b;
                }
                int n = 1 + rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    int at = f + 12 + rnd.nextInt(len - 12);
                    b[at] = (byte) (rnd.nextInt(3) == 0 ? rnd.nextInt(256) : b[at] ^ (1 << rnd.nextInt(8)));
                }
                Frames.fixCrc(b, f);
                return b;
            }
        }
    }

    /** Frame offsets of a stream, as far as its length fields lead (a mutated stream may stop early). */
    private static List<Integer> frames(byte[] b) {
        List<Integer> out = new ArrayList<>();
        long p = Format.STREAM_HEADER_BYTES;
        while (p + 8 <= b.length) {
            out.add((int) p);
            long len = Frames.u32(b, (int) p + 4) & 0xFFFFFFFFL;
            if (len < Format.FRAME_FIXED_HEADER_BYTES) {
                break;
            }
            p += len;
        }
        return out;
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }
}
