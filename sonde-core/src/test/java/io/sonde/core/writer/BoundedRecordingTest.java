package io.sonde.core.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.core.config.ConfigException;
import io.sonde.core.config.Quantities;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Identity;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.probe.Probes;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** file.maxsize and file.maxage: the oldest segments go whole, counted, and the rest stays readable. */
@Timeout(60)
class BoundedRecordingTest {
    static final UUID AGENT = UUID.fromString("b0dd0000-0000-4000-8000-00000000b0dd");
    static final int SEGMENT = 4096;

    @TempDir
    Path dir;

    private static SondeConfig config() {
        return SondeConfig.of(Map.of("writer", "file", "file.segment.bytes", String.valueOf(SEGMENT), "frame.bytes", "4096",
                "flush.interval.ms", "5"));
    }

    private Pipeline start(FileWriter writer) {
        return new Pipeline(config(), writer, Identity.of(AGENT), false);
    }

    private static void record(int probe, int pairs) {
        for (int i = 0; i < pairs; i++) Probes.exit(probe, Probes.enter(probe));
    }

    /** This agent's segment files by index. */
    private TreeMap<Integer, Path> segments() throws IOException {
        TreeMap<Integer, Path> out = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path f : s.toList()) {
                String n = f.getFileName().toString();
                if (n.startsWith("sonde-" + AGENT + "-")) out.put(Integer.parseInt(n.substring(n.length() - 12, n.length() - 6)), f);
            }
        }
        return out;
    }

    private long bytes(TreeMap<Integer, Path> segments) throws IOException {
        long sum = 0;
        for (Path f : segments.values()) sum += Files.size(f);
        return sum;
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("condition not met within 30 s");
            Thread.sleep(2);
        }
    }

    @Test
    void maxsizeHoldsTheFolderUnderItsLimitPlusOneSegmentAndCountsEveryDeletion() throws Exception {
        long max = 5 * SEGMENT;
        FileWriter w = new FileWriter(dir, SEGMENT, "600", max, 0);
        Pipeline p = start(w);
        int probe = p.defineProbe("app.Hot.tick", "()V");
        long worst = 0;
        try {
            for (int round = 0; round < 60; round++) {
                record(probe, 200); // about 5 KiB of records: more than a segment per round
                await(() -> p.counters().written() == p.counters().produced());
                worst = Math.max(worst, bytes(segments()));
            }
        } finally {
            p.close();
        }
        TreeMap<Integer, Path> left = segments();
        assertThat(left.lastKey()).as("segments written").isGreaterThan(20);
        // every index below the first one left was deleted, and each deletion was counted
        assertThat(left.keySet()).containsExactlyElementsOf(
                java.util.stream.IntStream.rangeClosed(left.firstKey(), left.lastKey()).boxed().toList());
        assertThat(w.deletedSegments()).isEqualTo((long) left.firstKey()).isPositive();
        assertThat(bytes(left)).isLessThanOrEqualTo(max + SEGMENT);
        assertThat(worst).as("largest folder seen between rounds").isLessThanOrEqualTo(max + SEGMENT);

        // what is left reads without error from its first frame (sequence > 0) to the trailer
        List<AgentLog> logs = SondeLogs.scan(dir);
        assertThat(logs).hasSize(1);
        long enters = 0;
        try (SondeReader r = logs.get(0).open()) {
            while (r.next()) {
                if (r.type() == Format.ENTER) enters++;
            }
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.trailer().written()).isEqualTo(2L * 60 * 200);
        }
        assertThat(enters).isPositive().isLessThan(60 * 200);
    }

    @Test
    void maxageDeletesClosedSegmentsLastWrittenTooLongAgoButNeverTheCurrentOne() throws Exception {
        AtomicLong now = new AtomicLong(1_000_000);
        long maxAge = TimeUnit.MINUTES.toMillis(10);
        FileWriter w = new FileWriter(dir, SEGMENT, "600", FileWriter.EXCLUSIVE, FileWriter.DEFAULT_RETRY_NANOS,
                new SegmentRetention(0, maxAge, now::get));
        Pipeline p = start(w);
        int probe = p.defineProbe("app.Hot.tick", "()V");
        try {
            record(probe, 1000);
            await(() -> p.counters().written() == 2000);
            int closedEarly = w.segmentIndex(); // segments 0 .. closedEarly-1 are closed
            assertThat(closedEarly).isGreaterThan(2);
            now.addAndGet(maxAge - 1000); // not yet too old: nothing goes
            record(probe, 1000);
            await(() -> p.counters().written() == 4000);
            Thread.sleep(50); // several flush intervals, each enforcing the age
            assertThat(w.deletedSegments()).isZero();
            int closedLate = w.segmentIndex();

            now.addAndGet(2000); // the early segments are now older than maxage, the later ones not
            await(() -> w.deletedSegments() == closedEarly);
            assertThat(segments().firstKey()).isEqualTo(closedEarly);

            now.addAndGet(maxAge); // everything closed is too old; the segment being written stays
            await(() -> w.deletedSegments() == closedLate);
            assertThat(segments().keySet()).containsExactly(closedLate);
        } finally {
            p.close();
        }
        assertThat(segments().firstKey()).isEqualTo(w.segmentIndex() == 0 ? 0 : segments().firstKey()); // readable
        assertThat(SondeLogs.scan(dir)).hasSize(1);
    }

    @Test
    void anEarlierRunsSegmentsCountTowardTheBound() throws Exception {
        FileWriter first = new FileWriter(dir, SEGMENT, "600", 0, 0);
        Pipeline p = start(first);
        record(p.defineProbe("app.Old.run", "()V"), 2000);
        p.close();
        int oldSegments = segments().size();
        assertThat(oldSegments).isGreaterThan(4);

        FileWriter second = new FileWriter(dir, SEGMENT, "600", 3 * SEGMENT, 0);
        Pipeline q = start(second);
        q.close();
        assertThat(second.deletedSegments()).isEqualTo((long) segments().firstKey()).isGreaterThanOrEqualTo(oldSegments - 3);
        assertThat(bytes(segments())).isLessThanOrEqualTo(3 * SEGMENT + SEGMENT);
    }

    @Test
    void sizesAndDurationsAreParsedAndBadOnesRefusedWithTheKey() {
        assertThat(Quantities.bytes("500m")).isEqualTo(500L << 20);
        assertThat(Quantities.bytes("2G")).isEqualTo(2L << 30);
        assertThat(Quantities.bytes("64kb")).isEqualTo(64L << 10);
        assertThat(Quantities.bytes("4096")).isEqualTo(4096);
        assertThat(Quantities.millis("10m")).isEqualTo(600_000);
        assertThat(Quantities.millis("2h")).isEqualTo(7_200_000);
        assertThat(Quantities.millis("250ms")).isEqualTo(250);
        assertThat(Quantities.millis("0")).isZero();
        assertThatThrownBy(() -> SondeConfig.of(Map.of("file.maxsize", "lots")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'file.maxsize'").hasMessageContaining("500m");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("file.maxage", "10")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'file.maxage'").hasMessageContaining("2h");
        assertThat(SondeConfig.of(Map.of("file.maxsize", "500m", "file.maxage", "2h")).get(
                io.sonde.core.config.ConfigKey.FILE_MAXSIZE)).isEqualTo("500m");
    }
}
