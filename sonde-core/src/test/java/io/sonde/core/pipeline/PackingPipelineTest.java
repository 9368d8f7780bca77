package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.Format;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The writer loop's packing decisions end to end: records per frame and the bound on waiting. */
@Timeout(180)
class PackingPipelineTest {
    /**
     * Remembers, per DATA frame handed over, when it came and how many data records the loop counted
     * for it (the loop adds a frame's records after write returns, so frame k's count is known at
     * write k + 1 or at the end).
     */
    static final class FrameLog implements Writer {
        volatile LongSupplier written = () -> 0;
        final List<Long> writeNanos = new ArrayList<>();
        final List<Long> writtenBefore = new ArrayList<>();

        @Override
        public void open(WriterContext context) {}

        @Override
        public synchronized void write(ByteBuffer frame) {
            if (frame.get(Format.FRAME_OFF_TYPE) != Format.FRAME_DATA) return;
            writeNanos.add(System.nanoTime());
            writtenBefore.add(written.getAsLong());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}

        /** Data records per frame, in order. */
        synchronized List<Long> recordsPerFrame(long total) {
            List<Long> r = new ArrayList<>();
            for (int k = 0; k < writtenBefore.size(); k++) {
                long next = k + 1 < writtenBefore.size() ? writtenBefore.get(k + 1) : total;
                r.add(next - writtenBefore.get(k));
            }
            return r;
        }
    }

    static Pipeline pipeline(FrameLog log, boolean manual, String... keys) {
        Map<String, String> m = new java.util.HashMap<>();
        m.put("policy", "block-forever");
        for (int i = 0; i < keys.length; i += 2) m.put(keys[i], keys[i + 1]);
        Pipeline p = new Pipeline(SondeConfig.of(m), log, Identity.of(UUID.randomUUID()), false, manual);
        log.written = () -> p.counters().written();
        return p;
    }

    @Test
    void aStaticDegreeLimitsTheDataRecordsOfEveryFrame() throws Exception {
        FrameLog log = new FrameLog();
        Pipeline p = pipeline(log, true, "packing", "static:3");
        int probe = p.defineProbe("a.B.c", "()V");
        p.manualOpen();
        ThreadBuffer one = p.newBuffer(Thread.currentThread(), 1, "one", 1, 4096);
        ThreadBuffer two = p.newBuffer(Thread.currentThread(), 2, "two", 2, 4096);
        for (int i = 0; i < 5; i++) {
            one.enter(probe, 1000 + i);
            one.exit(probe, 2000 + i);
        }
        two.enter(probe, 3000);
        p.manualDrain();
        p.manualEmitFrame();
        p.close();
        // 11 records, 3 per frame across both rings; the first frame also holds the definitions
        assertThat(log.recordsPerFrame(p.counters().written())).containsExactly(3L, 3L, 3L, 2L);
        assertThat(p.counters().written()).isEqualTo(11);
    }

    @Test
    void aFrameThatReachedItsDegreeGoesAtTheEndOfTheDrain() throws Exception {
        FrameLog log = new FrameLog();
        Pipeline p = pipeline(log, true, "packing", "static:3");
        int probe = p.defineProbe("a.B.c", "()V");
        p.manualOpen();
        ThreadBuffer one = p.newBuffer(Thread.currentThread(), 1, "one", 1, 4096);
        for (int i = 0; i < 3; i++) {
            one.enter(probe, 1000 + i);
            one.exit(probe, 2000 + i);
        }
        p.manualDrain(); // no emitFrame: both frames are complete
        int sentByTheDrain;
        synchronized (log) {
            sentByTheDrain = log.writeNanos.size();
        }
        p.close();
        assertThat(sentByTheDrain).isEqualTo(2);
        assertThat(log.recordsPerFrame(p.counters().written())).containsExactly(3L, 3L);
    }

    @Test
    void fillPacksEverythingOfADrainIntoOneFrame() throws Exception {
        FrameLog log = new FrameLog();
        Pipeline p = pipeline(log, true);
        int probe = p.defineProbe("a.B.c", "()V");
        p.manualOpen();
        ThreadBuffer one = p.newBuffer(Thread.currentThread(), 1, "one", 1, 4096);
        for (int i = 0; i < 50; i++) one.enter(probe, 1000 + i);
        p.manualDrain();
        p.manualEmitFrame();
        p.close();
        assertThat(log.recordsPerFrame(p.counters().written())).containsExactly(50L);
    }

    @Test
    void noRecordWaitsLongerThanTheBoundEvenWhenTheDegreeIsNeverReached() throws Exception {
        assertTheWaitIsBounded("static:100000");
    }

    @Test
    void theAdaptiveModeKeepsTheBoundWhileItsDegreeMoves() throws Exception {
        assertTheWaitIsBounded("adaptive");
    }

    /** Records every 3 ms for 0.6 s under a 30 ms bound and a 5 s flush interval: the bound, not close, sends them. */
    private static void assertTheWaitIsBounded(String packing) throws Exception {
        FrameLog log = new FrameLog();
        // a flush interval of 5 s: were the bound not applied, records would wait up to 5 s
        Pipeline p = pipeline(log, false, "packing", packing, "packing.maxwait.ms", "30", "packing.interval.ms", "10",
                "flush.interval.ms", "5000");
        int probe = p.defineProbe("a.B.c", "()V");
        ThreadBuffer b = p.newBuffer(Thread.currentThread());
        List<Long> produced = new ArrayList<>();
        long end = System.nanoTime() + 600_000_000L;
        while (System.nanoTime() < end) {
            long t = System.nanoTime();
            b.enter(probe, t);
            produced.add(t);
            Thread.sleep(3);
        }
        // the last frame goes out by its bound, not by close: wait for it (generously, for a loaded machine)
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<Long> sent;
        List<Long> perFrame;
        while (true) {
            synchronized (log) {
                sent = new ArrayList<>(log.writeNanos);
                perFrame = log.recordsPerFrame(p.counters().written());
            }
            if (perFrame.stream().mapToLong(Long::longValue).sum() >= produced.size() || System.nanoTime() - deadline > 0) break;
            Thread.sleep(5);
        }
        p.close();
        assertThat(perFrame.stream().mapToLong(Long::longValue).sum()).isEqualTo(produced.size());
        assertThat(sent).hasSizeGreaterThan(5); // several frames: the bound sent them, not one at close
        long worst = 0;
        int r = 0;
        for (int k = 0; k < perFrame.size(); k++) {
            for (long n = 0; n < perFrame.get(k); n++, r++) worst = Math.max(worst, sent.get(k) - produced.get(r));
        }
        // 30 ms bound; generous slack for a loaded machine, far below the 5 s flush interval
        assertThat(worst / 1_000_000).as("longest wait, ms").isLessThan(1000);
    }

    @Test
    void theAdaptiveDegreeMovesWhileRecordsFlow() throws Exception {
        FrameLog log = new FrameLog();
        Pipeline p = pipeline(log, false, "packing", "adaptive", "packing.interval.ms", "10");
        int probe = p.defineProbe("a.B.c", "()V");
        ThreadBuffer b = p.newBuffer(Thread.currentThread());
        // until the degree took a few steps (bounded: 60 s; a loaded machine may starve the writer for a while)
        long end = System.nanoTime() + 60_000_000_000L;
        long n = 0;
        while (p.packing().adaptations() <= 3 && System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) b.enter(probe, n++);
        }
        long adaptations = p.packing().adaptations();
        p.close();
        assertThat(adaptations).isGreaterThan(3);
        assertThat(p.counters().written()).isEqualTo(n);
    }

    @Test
    void theAdaptiveLadderEndsAtTheLargestDegreeWhoseRecordsFitInAFrame() throws Exception {
        FrameLog log = new FrameLog();
        // 4,096-byte frames: the smallest record (13 bytes) would allow 315 per frame, so without the
        // records' size the ladder would reach 256; records of 21 bytes (enter with CPU time) fit
        // (4,096 - 62 - host - 12) / 21 = 179..191 times for any host name up to 255 bytes: at most 128
        Pipeline p = pipeline(log, false, "packing", "adaptive", "packing.interval.ms", "10", "frame.bytes", "4096");
        assertThat(p.packing().largestDegree()).as("before any decision: the smallest record's bound").isEqualTo(256);
        int probe = p.defineProbe("a.B.c", "()V");
        ThreadBuffer b = p.newBuffer(Thread.currentThread());
        long end = System.nanoTime() + 60_000_000_000L;
        long n = 0;
        while (p.packing().adaptations() <= 3 && System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) b.enterCpu(probe, n++, n);
        }
        int largest = p.packing().largestDegree();
        long adaptations = p.packing().adaptations();
        p.close();
        assertThat(adaptations).isGreaterThan(3);
        assertThat(largest).isEqualTo(128);
        assertThat(p.counters().written()).isEqualTo(n);
    }
}
