package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.BufferTestAccess;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.FileWriter;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the scenarios of sonde-format/src/test/resources/golden/README.md through this module's
 * real encoding path (ThreadBuffer records, WriterLoop frames, FileWriter segments) with a fixed
 * identity and clocks, and compares the files byte for byte with the golden files.
 */
@Timeout(60)
class GoldenWriterTest {
    /** The pipeline writes format 2.0 (docs/format.md section 10): the 2.0 golden files. */
    static final Path GOLDEN = Path.of("..", "sonde-format", "src", "test", "resources", "golden", "2.0");
    static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Each frame seal reads wall then mono once: frame k gets base + k ms. */
    static LongSupplier steps(long base) {
        long[] n = {0};
        return () -> base + (n[0]++) * MS;
    }

    private Pipeline pipeline(String agent, String host, long pid, long wall, long mono, long segmentBytes) {
        SondeConfig cfg = SondeConfig.of(Map.of("policy", "drop"));
        Identity id = new Identity(UUID.fromString(agent), host, pid, steps(wall), steps(mono));
        return new Pipeline(cfg, new FileWriter(dir, segmentBytes), id, false, true);
    }

    private Path only(String agent, int segment) {
        return dir.resolve(FileWriter.segmentFileName(UUID.fromString(agent), segment));
    }

    @Test
    void minimal() throws Exception {
        String agent = "01234567-89ab-cdef-fedc-ba9876543210";
        long m = 5_000_000_000L;
        Pipeline p = pipeline(agent, "host-a", 4242, 1763800000000000000L, m, 64 << 20);
        try {
            int probe = p.defineProbe("com.example.Shop.checkout", "(I)V");
            assertThat(probe).isEqualTo(1);
            p.manualOpen(); // frame 0: the registry frame
            ThreadBuffer main = p.newBuffer(Thread.currentThread(), 1, "main", 1, 4096);
            main.enter(probe, m + 100_000);
            main.exit(probe, m + 350_000);
            p.manualDrain();
            p.manualEmitFrame();
        } finally {
            p.close();
        }
        assertThat(Files.readAllBytes(only(agent, 0))).isEqualTo(Files.readAllBytes(GOLDEN.resolve("minimal.sonde")));
        assertThat(p.counters().produced()).isEqualTo(2);
        assertThat(p.counters().written()).isEqualTo(2);
    }

    @Test
    void full() throws Exception {
        String agent = "5f0e2c1a-7b3d-4e9f-8a6c-0123456789ab";
        long m = 9_000_000_000L;
        Pipeline p = pipeline(agent, "host-b.example", 31337, 1763800100000000000L, m, 64 << 20);
        try {
            Registry r = p.registry();
            int checkout = p.defineProbe("com.example.Shop.checkout", "(I)V");
            int price = p.defineProbe("com.example.Shop.price", "(Ljava/lang/String;)J");
            int query = p.defineProbe("com.example.Db.query", "()Ljava/util/List;");
            int ioe = r.string("java.io.IOException");
            int ise = r.string("java.lang.IllegalStateException");
            int euWest = r.string("eu-west");
            byte[] orderTypes = {Format.FIELD_BOOLEAN, Format.FIELD_INT, Format.FIELD_LONG, Format.FIELD_DOUBLE,
                Format.FIELD_STRING};
            int order = r.eventType("order", orderTypes, new String[] {"paid", "items", "cents", "weight", "region"});
            int tick = r.eventType("tick", new byte[0], new String[0]);
            int orderBytes = r.eventRecordBytes(order);
            int tickBytes = r.eventRecordBytes(tick);
            p.manualOpen();

            ThreadBuffer t1 = p.newBuffer(Thread.currentThread(), 1, "main", 1, 4096);
            ThreadBuffer t17 = p.newBuffer(Thread.currentThread(), 17, "worker-\u00fc", 2, 4096);
            t1.enter(checkout, m + 10_000);
            t1.enterCpu(price, m + 20_000, 700_000);
            t1.exitCpu(price, m + 30_000, 705_000);
            t1.enter(query, m + 40_000);
            t1.exitException(query, m + 50_000, ioe);
            t1.events().begin(order, orderTypes, orderBytes, m + 55_000)
                    .putBoolean(true).putInt(3).putLong(1999).putDouble(2.5).putString(euWest).end();
            assertThat(t1.traceId()).isEqualTo(0x100000001L);

            t17.setParent(0x100000001L, 1, m + 25_000, false); // handed over at M+25000: a HANDOFF_START
            t17.enterCpu(query, m + 60_000, 2_000_000);
            t17.exitExceptionCpu(query, m + 70_000, 2_004_000, ise);
            BufferTestAccess.dropAsFull(t17, 4);
            t17.events().begin(tick, new byte[0], tickBytes, m + 80_000).end();
            p.manualDrain();
            p.manualEmitFrame();

            t17.enter(checkout, m + 1_100_000);
            t17.events().begin(order, orderTypes, orderBytes, m + 1_150_000)
                    .putBoolean(false).putInt(Integer.MIN_VALUE).putLong(Long.MAX_VALUE).putDouble(-0.125)
                    .putString(euWest).end();
            t17.exit(checkout, m + 1_200_000);
            p.manualDrain(); // thread 17's block first ...
            t1.exit(checkout, m + 1_300_000);
            p.manualDrain(); // ... then thread 1's, in the same frame
            p.manualEmitFrame();
        } finally {
            p.close();
        }
        assertThat(Files.readAllBytes(only(agent, 0))).isEqualTo(Files.readAllBytes(GOLDEN.resolve("full.sonde")));
        assertThat(p.counters().produced()).isEqualTo(17);
        assertThat(p.counters().dropped(DropReason.BUFFER_FULL)).isEqualTo(4);
    }

    @Test
    void rolled() throws Exception {
        String agent = "c0ffee00-0000-4000-8000-00000000beef";
        long m = 20_000_000_000L;
        // 500 bytes: the second data frame does not fit in segment 0 (which then holds 308 bytes),
        // the trailer still fits in segment 1
        Pipeline p = pipeline(agent, "host-c", 7, 1763800200000000000L, m, 500);
        try {
            int run = p.defineProbe("com.example.Job.run", "()V");
            int rte = p.registry().string("java.lang.RuntimeException");
            p.manualOpen();
            ThreadBuffer t5 = p.newBuffer(Thread.currentThread(), 5, "pool-1-thread-1", 5, 4096);
            t5.enter(run, m + 100_000);
            p.manualDrain();
            p.manualEmitFrame();
            t5.exitException(run, m + 3_500_000, rte);
            t5.enter(run, m + 3_600_000);
            t5.exit(run, m + 3_700_000);
            p.manualDrain();
            p.manualEmitFrame();
        } finally {
            p.close();
        }
        Path golden = GOLDEN.resolve("rolled");
        for (int seg = 0; seg < 2; seg++) {
            String name = FileWriter.segmentFileName(UUID.fromString(agent), seg);
            assertThat(Files.readAllBytes(dir.resolve(name))).as(name).isEqualTo(Files.readAllBytes(golden.resolve(name)));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.count()).isEqualTo(2);
        }
    }
}
