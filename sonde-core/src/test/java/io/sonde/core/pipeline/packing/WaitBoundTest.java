package io.sonde.core.pipeline.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The wait bound against a simulated writer thread: records produced at random times, drains at the
 * wake-ups {@link WaitBound#nextWake} asks for or earlier (a ring half full wakes the writer), frames
 * sent when they hold the degree or when due. Drains and writes take no time here, so the bound must
 * hold exactly.
 */
class WaitBoundTest {
    static final long MS = 1_000_000L;

    @Test
    void noRecordWaitsLongerThanTheBound() {
        for (long seed = 0; seed < 40; seed++) {
            Random rnd = new Random(seed);
            long maxWait = (1 + rnd.nextInt(100)) * MS;
            int degree = 1 + rnd.nextInt(64);
            long worst = simulate(rnd, maxWait, degree, 20_000);
            assertThat(worst).as("seed %d, bound %d ns, degree %d", seed, maxWait, degree).isLessThanOrEqualTo(maxWait);
        }
    }

    @Test
    void aSlowSourceWithAHugeDegreeStillMeetsTheBoundAndUsesIt() {
        // one record every 1..5 ms, degree never reached: only the bound sends frames
        long worst = simulate(new Random(3), 20 * MS, Integer.MAX_VALUE, 5_000);
        assertThat(worst).isLessThanOrEqualTo(20 * MS).isGreaterThan(10 * MS);
    }

    /** Returns the longest wait of any record (production to frame sent). */
    static long simulate(Random rnd, long maxWait, int degree, int records) {
        long now = 0;
        WaitBound wb = new WaitBound(maxWait, now);
        ArrayDeque<Long> ring = new ArrayDeque<>(); // production times not drained yet
        ArrayDeque<Long> frame = new ArrayDeque<>(); // production times in the open frame
        long nextProduced = rnd.nextInt(5 * (int) MS);
        long worst = 0;
        int produced = 0;
        long nextFlush = now + 100 * MS;
        while (produced < records || !ring.isEmpty() || !frame.isEmpty()) {
            long wake = wb.nextWake(nextFlush);
            assertThat(wake - now).as("the writer never sleeps longer than half the bound").isLessThanOrEqualTo(maxWait / 2);
            // sometimes a producer wakes the writer early
            if (rnd.nextInt(4) == 0) wake = now + rnd.nextLong(Math.max(1, wake - now) + 1);
            // producers run until then
            while (produced < records && nextProduced <= wake) {
                ring.add(nextProduced);
                produced++;
                nextProduced += 1 + rnd.nextInt(rnd.nextBoolean() ? 1000 : 5 * (int) MS);
            }
            now = Math.max(now, wake);
            // drain: the positions are read "now"; everything produced up to now is taken
            wb.drainStarted(now);
            while (!ring.isEmpty()) {
                if (frame.isEmpty()) wb.frameOpened();
                frame.add(ring.poll());
                if (frame.size() == degree) worst = Math.max(worst, send(frame, wb, now));
            }
            if (wb.due(now)) worst = Math.max(worst, send(frame, wb, now));
            if (now >= nextFlush) nextFlush = now + 100 * MS;
        }
        return worst;
    }

    private static long send(ArrayDeque<Long> frame, WaitBound wb, long now) {
        long worst = 0;
        for (long t : frame) worst = Math.max(worst, now - t);
        frame.clear();
        wb.frameSent();
        return worst;
    }

    @Test
    void aFrameIsDueTheBoundAfterThePreviousDrainBegan() {
        WaitBound wb = new WaitBound(10 * MS, 0);
        wb.drainStarted(3 * MS);
        wb.drainStarted(5 * MS);
        wb.frameOpened(); // its records were produced after 3 ms
        assertThat(wb.due(12 * MS)).isFalse();
        assertThat(wb.due(13 * MS)).isTrue();
        assertThat(wb.nextWake(100 * MS)).isEqualTo(10 * MS); // poll: 5 ms + half the bound
        wb.drainStarted(9 * MS);
        assertThat(wb.nextWake(100 * MS)).isEqualTo(13 * MS); // the deadline comes first
        wb.frameSent();
        assertThat(wb.due(50 * MS)).isFalse();
        assertThat(wb.nextWake(11 * MS)).isEqualTo(11 * MS);
    }

    @Test
    void theBoundMustBePositive() {
        assertThatThrownBy(() -> new WaitBound(0, 0)).hasMessageContaining("wait bound must be positive");
    }
}
