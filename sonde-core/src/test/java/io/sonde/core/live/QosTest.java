package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Qos;
import io.sonde.api.live.Subscription;
import io.sonde.core.live.mib.ManualClock;
import io.sonde.core.live.session.ObserverEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** QoS bounds, driven by a manual clock and a pumped session (no sleeps). */
class QosTest {
    static final Duration MS = Duration.ofMillis(1);

    final ManualClock clock = new ManualClock();
    final LiveRuntime live = LiveRuntime.bare(clock);
    final Recorder seen = new Recorder();
    final ObserverEndpoint session = live.openManualSession(seen, 1024);
    final LongSensor a = live.object("app", "App").longSensor("a", "", "");
    final LongSensor b = live.object("app", "App").longSensor("b", "", "");

    private static List<Integer> sizes(Recorder r) {
        List<Integer> out = new ArrayList<>();
        for (Recorder.Delivery d : r.deliveries()) out.add(d.events().size());
        return out;
    }

    @Test
    void immediateDeliversEachEventAlone() {
        session.subscribe("app/*", Qos.immediate());
        a.set(1);
        b.set(1);
        a.set(2);
        assertThat(session.pump()).isEqualTo(Long.MAX_VALUE);
        assertThat(sizes(seen)).containsExactly(1, 1, 1);
        assertThat(seen.events()).extracting(LiveEvent::sourcePath).containsExactly("app/a", "app/b", "app/a");
    }

    @Test
    void batchDeliversEveryNEventsAndFlushesAtTheTimeout() {
        session.subscribe("app/a", Qos.batch(3, Duration.ofMillis(50)));
        long t0 = clock.nanos();
        for (int i = 1; i <= 7; i++) a.set(i);
        assertThat(session.pump()).as("deadline of the started batch").isEqualTo(t0 + 50 * 1_000_000L);
        assertThat(sizes(seen)).containsExactly(3, 3);
        clock.advance(Duration.ofMillis(49));
        session.pump();
        assertThat(sizes(seen)).containsExactly(3, 3);
        clock.advance(MS);
        assertThat(session.pump()).isEqualTo(Long.MAX_VALUE);
        assertThat(sizes(seen)).containsExactly(3, 3, 1);
        assertThat(seen.events()).extracting(LiveEvent::longValue).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    }

    /**
     * Events at random times, the dispatcher waking no later than the deadline it returned (as its
     * thread does): no delivered batch is bigger than n, and none waited longer than the flush
     * timeout for its oldest event.
     */
    @Test
    void aBatchNeverWaitsLongerThanItsFlushTimeout() {
        long flush = Duration.ofMillis(20).toNanos();
        List<long[]> ages = new ArrayList<>();
        ObserverEndpoint s = live.openManualSession((sub, events) -> {
            ages.add(new long[] {clock.nanos() - events.get(0).timeNanos(), events.size()});
        }, 1024);
        s.subscribe("app/b", Qos.batch(5, Duration.ofNanos(flush)));
        Random r = new Random(7);
        long next = Long.MAX_VALUE;
        for (int i = 1; i <= 2000; i++) {
            long step = Duration.ofMillis(r.nextInt(12)).toNanos();
            if (next != Long.MAX_VALUE) step = Math.min(step, next - clock.nanos());
            clock.advance(Duration.ofNanos(Math.max(0, step)));
            if (r.nextInt(3) > 0) b.set(i);
            next = s.pump();
        }
        assertThat(ages).hasSizeGreaterThan(100);
        assertThat(ages).allSatisfy(x -> {
            assertThat(x[0]).isLessThanOrEqualTo(flush);
            assertThat(x[1]).isBetween(1L, 5L);
        });
        assertThat(ages).anySatisfy(x -> assertThat(x[1]).isLessThan(5)); // some went by timeout
        assertThat(ages).anySatisfy(x -> assertThat(x[1]).isEqualTo(5)); // some went full
    }

    @Test
    void periodicDeliversEverythingOfThePeriodAtThePeriod() {
        long t0 = clock.nanos();
        session.subscribe("app/*", Qos.periodic(Duration.ofMillis(10)));
        clock.advance(MS);
        a.set(1);
        clock.advance(Duration.ofMillis(2));
        b.set(1);
        a.set(2);
        assertThat(session.pump()).isEqualTo(t0 + 10_000_000L);
        clock.advance(Duration.ofMillis(6)); // t0 + 9 ms
        session.pump();
        assertThat(seen.deliveries()).isEmpty();
        clock.advance(MS); // t0 + 10 ms
        assertThat(session.pump()).isEqualTo(t0 + 20_000_000L);
        assertThat(sizes(seen)).containsExactly(3);
        clock.advance(Duration.ofMillis(5));
        a.set(3);
        clock.advance(Duration.ofMillis(4));
        session.pump();
        assertThat(sizes(seen)).containsExactly(3);
        clock.advance(MS); // t0 + 20 ms
        session.pump();
        assertThat(sizes(seen)).containsExactly(3, 1);
        clock.advance(Duration.ofMillis(35)); // idle periods deliver nothing, the grid holds
        assertThat(session.pump()).isEqualTo(t0 + 60_000_000L);
        assertThat(sizes(seen)).containsExactly(3, 1);
    }

    @Test
    void latestModeKeepsOnlyTheLastValuePerAttributeAndEveryObjectEvent() {
        MonitoredObject app = live.find("app").orElseThrow();
        session.subscribe("app/**", Qos.periodicLatest(Duration.ofMillis(10)));
        a.set(1);
        a.set(2);
        b.set(7);
        a.set(3);
        app.createChild("x", "X");
        app.createChild("y", "Y");
        b.set(8);
        clock.advance(Duration.ofMillis(10));
        session.pump();
        assertThat(sizes(seen)).containsExactly(4);
        assertThat(seen.events()).extracting(e -> e.sourcePath() + "=" + (e.valueType() == null ? e.childPath() : e.value()))
                .containsExactly("app/a=3", "app/b=8", "app=app/x", "app=app/y");
    }

    @Test
    void urgentEventsOvertakeQueuedRegularOnes() {
        LongSensor alarm = live.object("alarm", "Alarm").longSensor("level", "", "");
        session.subscribe("app/*", Qos.immediate());
        session.subscribe("alarm/*", Qos.immediate().urgent());
        for (int i = 1; i <= 5; i++) a.set(i);
        alarm.set(1);
        session.pump();
        assertThat(seen.events()).extracting(LiveEvent::sourcePath).containsExactly("alarm/level", "app/a", "app/a",
                "app/a", "app/a", "app/a");
    }

    @Test
    void anUrgentEventArrivingMidDispatchGoesBeforeTheRestOfTheRegularOnes() {
        LongSensor alarm = live.object("alarm", "Alarm").longSensor("level", "", "");
        List<String> order = new ArrayList<>();
        ObserverEndpoint s = live.openManualSession((sub, events) -> {
            for (LiveEvent e : events) {
                order.add(e.sourcePath() + "=" + e.value());
                if (e.sourcePath().equals("app/a") && e.longValue() == 2) alarm.set(9); // raised while delivering
            }
        }, 64);
        s.subscribe("app/a", Qos.immediate());
        s.subscribe("alarm/level", Qos.immediate().urgent());
        for (int i = 1; i <= 4; i++) a.set(i);
        s.pump();
        assertThat(order).containsExactly("app/a=1", "app/a=2", "alarm/level=9", "app/a=3", "app/a=4");
    }

    @Test
    void urgentBatchesGoBeforeDueRegularBatches() {
        LongSensor alarm = live.object("alarm", "Alarm").longSensor("level", "", "");
        session.subscribe("app/a", Qos.batch(10, Duration.ofMillis(5)));
        session.subscribe("alarm/level", Qos.batch(10, Duration.ofMillis(5)).urgent());
        a.set(1);
        alarm.set(1);
        clock.advance(Duration.ofMillis(5));
        session.pump();
        assertThat(seen.events()).extracting(LiveEvent::sourcePath).containsExactly("alarm/level", "app/a");
    }

    @Test
    void overflowIsCountedAndReportedToThatSessionOnly() {
        Recorder small = new Recorder();
        ObserverEndpoint slow = live.openManualSession(small, 4);
        slow.subscribe("app/a", Qos.immediate());
        session.subscribe("app/a", Qos.immediate());
        for (int i = 1; i <= 10; i++) a.set(i);
        assertThat(slow.overflowCount()).isEqualTo(6);
        assertThat(session.overflowCount()).isZero();
        slow.pump();
        session.pump();
        assertThat(small.overflows()).hasSize(1);
        assertThat(small.overflows().get(0)).containsExactly(6L, 6L);
        assertThat(small.events()).extracting(LiveEvent::longValue).containsExactly(1L, 2L, 3L, 4L);
        assertThat(seen.events()).hasSize(10);
        assertThat(seen.overflows()).isEmpty();
    }

    @Test
    void periodicStagingIsBoundedByTheCapacity() {
        ObserverEndpoint s = live.openManualSession(seen, 8);
        s.subscribe("app/a", Qos.periodic(Duration.ofMillis(10)));
        for (int i = 1; i <= 30; i++) {
            a.set(i);
            if (i % 4 == 0) s.pump(); // the dispatcher drains the queue before it is full
        }
        clock.advance(Duration.ofMillis(10));
        s.pump();
        assertThat(sizes(seen)).containsExactly(8);
        assertThat(s.overflowCount()).isEqualTo(22);
    }

    @Test
    void cancelledSubscriptionsDeliverNothingMore() {
        Subscription sub = session.subscribe("app/a", Qos.batch(10, Duration.ofMillis(5)));
        a.set(1);
        session.pump();
        sub.cancel();
        clock.advance(Duration.ofMillis(5));
        session.pump();
        assertThat(seen.deliveries()).isEmpty();
        sub.cancel(); // idempotent
    }

    @Test
    void badSubscriptionsGetClearErrors() {
        assertThatThrownBy(() -> session.subscribe("app//a", Qos.immediate())).hasMessageContaining("empty segment");
        assertThatThrownBy(() -> session.subscribe("app/a", java.util.EnumSet.noneOf(EventKind.class), Qos.immediate()))
                .hasMessageContaining("the set is empty");
        assertThatThrownBy(() -> session.subscribe("app/a", Qos.batch(5000, MS))).hasMessageContaining("exceeds");
        assertThatThrownBy(() -> Qos.batch(0, MS)).hasMessageContaining("below 1");
        assertThatThrownBy(() -> Qos.periodic(Duration.ZERO)).hasMessageContaining("not positive");
        session.close();
        assertThatThrownBy(() -> session.subscribe("app/a", Qos.immediate())).hasMessageContaining("closed");
    }

    /** Keeps deliveries and flushes in the order they came: "events N" or "flush". */
    static class FlushLog implements io.sonde.api.live.Observer {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onEvents(Subscription subscription, List<LiveEvent> events) {
            calls.add("events " + events.size());
        }

        @Override
        public void flush() {
            calls.add("flush");
        }

        List<Integer> flushesAfter() {
            List<Integer> at = new ArrayList<>();
            int deliveries = 0;
            for (String c : calls) {
                if (c.equals("flush")) at.add(deliveries);
                else deliveries++;
            }
            return at;
        }
    }

    @Test
    void aPassFlushesTheObserverOnceAfterItsDeliveries() {
        FlushLog log = new FlushLog();
        ObserverEndpoint s = live.openManualSession(log, 1024);
        s.subscribe("app/a", Qos.immediate());
        s.subscribe("app/b", Qos.batch(1, Duration.ofMillis(10)));
        a.set(1);
        b.set(1);
        a.set(2);
        s.pump();
        assertThat(log.calls).containsExactly("events 1", "events 1", "events 1", "flush");
        s.pump();
        assertThat(log.calls).as("a pass without deliveries does not flush").hasSize(4);
        b.set(2);
        s.pump();
        assertThat(log.calls).endsWith("events 1", "flush").hasSize(6);
    }

    @Test
    void aLongPassFlushesEveryFlushEveryDeliveries() {
        FlushLog log = new FlushLog();
        ObserverEndpoint s = live.openManualSession(log, 1024);
        s.subscribe("app/a", Qos.immediate());
        int n = 2 * io.sonde.api.live.Observer.FLUSH_EVERY + 22;
        for (int i = 1; i <= n; i++) a.set(i);
        s.pump();
        int every = io.sonde.api.live.Observer.FLUSH_EVERY;
        assertThat(log.flushesAfter()).containsExactly(every, 2 * every, n);
        assertThat(log.calls).last().isEqualTo("flush");
    }

    @Test
    void aFailingFlushIsCountedAndTheSessionGoesOn() {
        FlushLog log = new FlushLog() {
            @Override
            public void flush() {
                super.flush();
                throw new IllegalStateException("broken pipe");
            }
        };
        ObserverEndpoint s = live.openManualSession(log, 1024);
        s.subscribe("app/a", Qos.immediate());
        a.set(1);
        s.pump();
        a.set(2);
        s.pump();
        assertThat(log.calls).containsExactly("events 1", "flush", "events 1", "flush");
        assertThat(s.observerFailures()).isEqualTo(2);
    }
}
