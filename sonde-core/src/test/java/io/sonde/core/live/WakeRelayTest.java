package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.Qos;
import io.sonde.api.live.Subscription;
import io.sonde.core.live.mib.LiveClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Many sessions woken through the wake relay (one unpark per burst on the application thread, the
 * first dispatcher up unparks the others): with immediate delivery and no deadline to fall back on,
 * a lost wake-up would leave events undelivered for good, so every test waits for every event.
 */
class WakeRelayTest {
    static final int SESSIONS = 8;
    final LiveRuntime live = LiveRuntime.bare(LiveClock.system());
    final LongSensor a = live.object("app", "App").longSensor("a", "", "");
    final LongSensor b = live.object("app", "App").longSensor("b", "", "");

    @AfterEach
    void close() {
        live.close();
    }

    /** Counts events and checks each sensor's values arrive in order. */
    static final class Counting extends Recorder {
        final CountDownLatch all;
        final AtomicLong outOfOrder = new AtomicLong();
        private final long[] last = new long[2];

        Counting(int expected) {
            all = new CountDownLatch(expected);
        }

        @Override
        public void onEvents(Subscription sub, List<LiveEvent> events) {
            for (LiveEvent e : events) {
                int k = e.sourcePath().endsWith("/a") ? 0 : 1;
                if (e.longValue() != last[k] + 1) outOfOrder.incrementAndGet();
                last[k] = e.longValue();
                all.countDown();
            }
        }
    }

    @Test
    void everyEventOfBurstsFromTwoThreadsReachesEverySession() throws Exception {
        int perSensor = 20_000;
        List<Counting> observers = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            Counting c = new Counting(2 * perSensor);
            observers.add(c);
            live.openSession(c, 1 << 16).subscribe("app/*", Qos.immediate()); // room for all: nothing dropped
        }
        Thread ta = producer(a, perSensor);
        Thread tb = producer(b, perSensor);
        ta.start();
        tb.start();
        ta.join(60_000);
        tb.join(60_000);
        for (Counting c : observers) {
            assertThat(c.all.await(60, TimeUnit.SECONDS)).as("all events delivered, %s left", c.all.getCount()).isTrue();
            assertThat(c.outOfOrder).hasValue(0);
        }
        for (ObserverSession s : live.sessions()) assertThat(s.overflowCount()).isZero();
    }

    /**
     * Sessions opened and closed all the time beside 4 that stay (a closing session may be on the
     * relay, or be the one that was unparked for it): the 4 still get every event.
     */
    @Test
    void sessionsComingAndGoingLoseNoWakeUpOfTheOthers() throws Exception {
        int perSensor = 10_000;
        List<Counting> stable = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Counting c = new Counting(2 * perSensor);
            stable.add(c);
            live.openSession(c, 1 << 16).subscribe("app/*", Qos.immediate());
        }
        Thread ta = producer(a, perSensor);
        Thread tb = producer(b, perSensor);
        ta.start();
        tb.start();
        int churned = 0;
        while (ta.isAlive() || tb.isAlive() || churned < 50) {
            ObserverSession s = live.openSession(new Recorder(), 64);
            s.subscribe("app/*", Qos.immediate());
            LockSupport.parkNanos(200_000);
            s.close();
            churned++;
        }
        ta.join(60_000);
        tb.join(60_000);
        for (Counting c : stable) {
            assertThat(c.all.await(60, TimeUnit.SECONDS)).as("all events delivered, %s left", c.all.getCount()).isTrue();
            assertThat(c.outOfOrder).hasValue(0);
        }
        assertThat(live.sessions()).hasSize(4);
    }

    /** Bursts of 3 with pauses between them, so that the dispatchers fall asleep again and again. */
    private static Thread producer(LongSensor sensor, int n) {
        return new Thread(() -> {
            for (int i = 1; i <= n; i++) {
                sensor.set(i);
                if (i % 3 == 0) LockSupport.parkNanos(20_000);
            }
        });
    }

    /**
     * One observer blocks in its callback (its dispatcher is never asleep, so never on the relay):
     * the others keep being woken for every burst and get everything.
     */
    @Test
    void aStalledObserverHoldsUpNoOtherSessionsWakeUps() throws Exception {
        BlockingRecorder stuck = new BlockingRecorder();
        try {
            live.openSession(stuck, 16).subscribe("app/a", Qos.immediate());
            a.set(1);
            assertThat(stuck.blocked.await(30, TimeUnit.SECONDS)).isTrue();
            int n = 3_000;
            List<Counting> others = new ArrayList<>();
            for (int i = 0; i < SESSIONS - 1; i++) {
                Counting c = new Counting(n);
                others.add(c);
                live.openSession(c, 1 << 14).subscribe("app/b", Qos.immediate());
            }
            Thread t = producer(b, n);
            t.start();
            t.join(60_000);
            for (Counting c : others) {
                assertThat(c.all.await(60, TimeUnit.SECONDS)).as("%s events left", c.all.getCount()).isTrue();
                assertThat(c.outOfOrder).hasValue(0);
            }
        } finally {
            stuck.release();
        }
    }
}
