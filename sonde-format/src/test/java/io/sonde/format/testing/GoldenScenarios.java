package io.sonde.format.testing;

import static io.sonde.format.testing.RecordBytes.str;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The scenarios of the golden files in {@code src/test/resources/golden/}, built with the
 * test-side encoder: the format 1.0 files at the top, the 2.0 files under {@code 2.0/} (the same
 * scenarios in a 2.0 stream; in {@code full.sonde} the handed-off trace starts with a
 * HANDOFF_START). {@code golden/README.md} describes the same scenarios in prose; keep both in
 * step. To regenerate the files after a deliberate format change (a new format version):
 * {@code mvn -pl sonde-format verify -Dtest=GoldenBytesTest -Dsonde.golden.write=$PWD/sonde-format/src/test/resources/golden}.
 */
public final class GoldenScenarios {
    private GoldenScenarios() {}

    // ---- minimal.sonde
    public static final UUID MINIMAL_AGENT = UUID.fromString("01234567-89ab-cdef-fedc-ba9876543210");
    public static final String MINIMAL_HOST = "host-a";
    public static final int MINIMAL_PID = 4242;
    public static final long MINIMAL_WALL = 1_763_800_000_000_000_000L;
    public static final long MINIMAL_MONO = 5_000_000_000L;

    /** The folder (relative to golden/) of the files of a format major version. */
    public static String folder(int major) {
        return major == 1 ? "" : major + ".0/";
    }

    public static byte[] minimal() {
        return minimal(1);
    }

    public static byte[] minimal(int major) {
        long w = MINIMAL_WALL;
        long m = MINIMAL_MONO;
        return new StreamBytes(MINIMAL_AGENT, MINIMAL_HOST, MINIMAL_PID, major, 0)
                .data(0, w, m,
                        0L, new RecordBytes().probeDef(1, "com.example.Shop.checkout", "(I)V"))
                .data(1, w + 1_000_000, m + 1_000_000,
                        0L, new RecordBytes().threadDef(1, "main"),
                        1L, new RecordBytes()
                                .traceStart(0x1_0000_0001L, 0, -1)
                                .enter(1, m + 100_000)
                                .exit(1, m + 350_000))
                .trailer(2, w + 2_000_000, m + 2_000_000, 2, 2)
                .toBytes();
    }

    // ---- full.sonde
    public static final UUID FULL_AGENT = UUID.fromString("5f0e2c1a-7b3d-4e9f-8a6c-0123456789ab");
    public static final String FULL_HOST = "host-b.example";
    public static final int FULL_PID = 31337;
    public static final long FULL_WALL = 1_763_800_100_000_000_000L;
    public static final long FULL_MONO = 9_000_000_000L;
    /** In the 2.0 file: when execution #1 of trace 0x100000001 handed the work of trace 0x200000001 over. */
    public static final long FULL_HANDOFF_TIME = FULL_MONO + 25_000;

    public static byte[] full() {
        return full(1);
    }

    public static byte[] full(int major) {
        long w = FULL_WALL;
        long m = FULL_MONO;
        RecordBytes child = major == 1
                ? new RecordBytes().traceStart(0x2_0000_0001L, 0x1_0000_0001L, 1)
                : new RecordBytes().handoffStart(0x2_0000_0001L, 0x1_0000_0001L, 1, FULL_HANDOFF_TIME);
        return new StreamBytes(FULL_AGENT, FULL_HOST, FULL_PID, major, 0)
                .data(0, w, m,
                        0L, new RecordBytes()
                                .probeDef(1, "com.example.Shop.checkout", "(I)V")
                                .probeDef(2, "com.example.Shop.price", "(Ljava/lang/String;)J")
                                .probeDef(3, "com.example.Db.query", "()Ljava/util/List;")
                                .stringDef(1, "java.io.IOException")
                                .stringDef(2, "java.lang.IllegalStateException")
                                .stringDef(3, "eu-west")
                                .eventDef(1, "order", 1, "paid", 2, "items", 3, "cents", 4, "weight", 5, "region")
                                .eventDef(2, "tick"))
                .data(1, w + 1_000_000, m + 1_000_000,
                        0L, new RecordBytes().threadDef(1, "main").threadDef(17, "worker-\u00fc"),
                        1L, new RecordBytes()
                                .traceStart(0x1_0000_0001L, 0, -1)
                                .enter(1, m + 10_000)
                                .enterCpu(2, m + 20_000, 700_000)
                                .exitCpu(2, m + 30_000, 705_000)
                                .enter(3, m + 40_000)
                                .exitException(3, m + 50_000, 1)
                                .event(1, m + 55_000, true, 3, 1999L, 2.5, str(3)),
                        17L, child
                                .enterCpu(3, m + 60_000, 2_000_000)
                                .exitExceptionCpu(3, m + 70_000, 2_004_000, 2)
                                .gap(4)
                                .event(2, m + 80_000))
                .data(2, w + 2_000_000, m + 2_000_000,
                        17L, new RecordBytes()
                                .traceStart(0x2_0000_0002L, 0, -1)
                                .enter(1, m + 1_100_000)
                                .event(1, m + 1_150_000, false, Integer.MIN_VALUE, Long.MAX_VALUE, -0.125, str(3))
                                .exit(1, m + 1_200_000),
                        1L, new RecordBytes()
                                .exit(1, m + 1_300_000))
                .trailer(3, w + 3_000_000, m + 3_000_000, 17, 13, 1, 4L)
                .toBytes();
    }

    // ---- rolled/ (two segments)
    public static final UUID ROLLED_AGENT = UUID.fromString("c0ffee00-0000-4000-8000-00000000beef");
    public static final String ROLLED_HOST = "host-c";
    public static final int ROLLED_PID = 7;
    public static final long ROLLED_WALL = 1_763_800_200_000_000_000L;
    public static final long ROLLED_MONO = 20_000_000_000L;

    /** File name of a segment of the rolled scenario. */
    public static String rolledName(int segment) {
        return String.format("sonde-%s-%06d.sonde", ROLLED_AGENT, segment);
    }

    /** The two segments, in order, keyed by file name. */
    public static Map<String, byte[]> rolled() {
        return rolled(1);
    }

    public static Map<String, byte[]> rolled(int major) {
        long w = ROLLED_WALL;
        long m = ROLLED_MONO;
        byte[] s0 = new StreamBytes(ROLLED_AGENT, ROLLED_HOST, ROLLED_PID, major, 0)
                .data(0, w, m,
                        0L, new RecordBytes()
                                .probeDef(1, "com.example.Job.run", "()V")
                                .stringDef(1, "java.lang.RuntimeException"))
                .data(1, w + 1_000_000, m + 1_000_000,
                        0L, new RecordBytes().threadDef(5, "pool-1-thread-1"),
                        5L, new RecordBytes()
                                .traceStart(0x5_0000_0001L, 0, -1)
                                .enter(1, m + 100_000))
                .segmentEnd(2, w + 2_000_000, m + 2_000_000, 1)
                .toBytes();
        byte[] s1 = new StreamBytes(ROLLED_AGENT, ROLLED_HOST, ROLLED_PID, major, 0)
                .data(3, w + 3_000_000, m + 3_000_000,
                        0L, new RecordBytes()
                                .probeDef(1, "com.example.Job.run", "()V")
                                .stringDef(1, "java.lang.RuntimeException")
                                .threadDef(5, "pool-1-thread-1"))
                .data(4, w + 4_000_000, m + 4_000_000,
                        5L, new RecordBytes()
                                .exitException(1, m + 3_500_000, 1)
                                .traceStart(0x5_0000_0002L, 0, -1)
                                .enter(1, m + 3_600_000)
                                .exit(1, m + 3_700_000))
                .trailer(5, w + 5_000_000, m + 5_000_000, 4, 4)
                .toBytes();
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(rolledName(0), s0);
        files.put(rolledName(1), s1);
        return files;
    }

    // ---- 2.4/compressed.sonde
    public static final UUID COMPRESSED_AGENT = UUID.fromString("24242424-0000-4000-8000-00000000c0de");
    public static final String COMPRESSED_HOST = "host-d";
    public static final int COMPRESSED_PID = 2424;
    public static final long COMPRESSED_WALL = 1_763_800_300_000_000_000L;
    public static final long COMPRESSED_MONO = 30_000_000_000L;
    /** Calls of {@code Loop.step} inside the one {@code Loop.run} of frame 1. */
    public static final int COMPRESSED_PAIRS = 16;

    /**
     * The DATA frame (sequence 1) that {@code 2.4/compressed.sonde} holds in compressed form:
     * thread 1 starts trace 0x100000001 in {@code com.example.Loop.run()V} (probe 1, M+100000 to
     * M+150000), which calls {@code com.example.Loop.step()V} (probe 2) 16 times, each call 1000 ns
     * long and starting 2500 ns after the previous one, the first at M+101000.
     */
    public static byte[] compressedScenarioDataFrame() {
        long m = COMPRESSED_MONO;
        RecordBytes loop = new RecordBytes().traceStart(0x1_0000_0001L, 0, -1).enter(1, m + 100_000);
        for (int i = 0; i < COMPRESSED_PAIRS; i++) {
            loop.enter(2, m + 101_000 + 2_500L * i).exit(2, m + 102_000 + 2_500L * i);
        }
        loop.exit(1, m + 150_000);
        return new StreamBytes(COMPRESSED_AGENT, COMPRESSED_HOST, COMPRESSED_PID, 2, 0)
                .dataFrame(1, COMPRESSED_WALL + 1_000_000, m + 1_000_000, 1L, loop);
    }

    /**
     * A 2.0 stream (the stream header does not change for compression, docs/format.md section 10)
     * with a registry frame, the DATA frame of {@link #compressedScenarioDataFrame} as a COMPRESSED
     * frame (its LZ4 bytes are those of Sonde's compressor), and a trailer.
     */
    public static byte[] compressed() {
        long w = COMPRESSED_WALL;
        long m = COMPRESSED_MONO;
        return new StreamBytes(COMPRESSED_AGENT, COMPRESSED_HOST, COMPRESSED_PID, 2, 0)
                .data(0, w, m,
                        0L, new RecordBytes().probeDef(1, "com.example.Loop.run", "()V")
                                .probeDef(2, "com.example.Loop.step", "()V").threadDef(1, "main"))
                .raw(Frames.compressed(compressedScenarioDataFrame()))
                .trailer(2, w + 2_000_000, m + 2_000_000, 2 * COMPRESSED_PAIRS + 2, 2 * COMPRESSED_PAIRS + 2)
                .toBytes();
    }

    /** Every golden file of both versions: path relative to golden/ mapped to its bytes. */
    public static Map<String, byte[]> all() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (int major = 1; major <= 2; major++) {
            String dir = folder(major);
            files.put(dir + "minimal.sonde", minimal(major));
            files.put(dir + "full.sonde", full(major));
            rolled(major).forEach((name, bytes) -> files.put(dir + "rolled/" + name, bytes));
        }
        files.put("2.4/compressed.sonde", compressed());
        return files;
    }
}
