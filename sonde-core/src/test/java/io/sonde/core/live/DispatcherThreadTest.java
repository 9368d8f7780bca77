package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.Qos;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.mib.LongSensorNode;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sessions with their real dispatcher threads (latches, no sleeps). */
class DispatcherThreadTest {
    final LiveRuntime live = LiveRuntime.bare(LiveClock.system());
    final LongSensor x = live.object("app", "App").longSensor("x", "", "");

    @AfterEach
    void close() {
        live.close();
    }

    @Test
    void deliveriesRunOnTheSessionThreadInOrder() throws Exception {
        Recorder r = new Recorder();
        ObserverSession s = live.openSession(r);
        s.subscribe("app/x", Qos.immediate());
        r.expect(100);
        for (int i = 1; i <= 100; i++) x.set(i);
        assertThat(r.await()).isTrue();
        assertThat(r.events()).extracting(LiveEvent::longValue).containsExactlyElementsOf(
                java.util.stream.LongStream.rangeClosed(1, 100).boxed().toList());
        assertThat(r.deliveries()).allSatisfy(d -> {
            assertThat(d.thread()).isNotSameAs(Thread.currentThread());
            assertThat(d.thread().getName()).startsWith("sonde-live-session-");
        });
    }

    @Test
    void aStartedBatchIsFlushedByTheTimerWithoutFurtherEvents() throws Exception {
        Recorder r = new Recorder();
        live.openSession(r).subscribe("app/x", Qos.batch(100, Duration.ofMillis(20)));
        r.expect(1);
        x.set(1);
        assertThat(r.await()).isTrue();
        assertThat(r.deliveries()).hasSize(1);
    }

    @Test
    void periodicDeliveriesComeWithoutAnyWakeUp() throws Exception {
        Recorder r = new Recorder();
        live.openSession(r).subscribe("app/x", Qos.periodicLatest(Duration.ofMillis(10)));
        r.expect(1);
        x.set(1);
        x.set(2);
        assertThat(r.await()).isTrue();
        assertThat(r.events()).extracting(LiveEvent::longValue).containsAnyOf(1L, 2L);
    }

    /**
     * One observer blocks in its callback: the application keeps writing (enqueueing never
     * waits), the other session gets every event, and the blocked one counts its overflow.
     */
    @Test
    void aBlockedObserverCostsOnlyItsOwnQueue() throws Exception {
        BlockingRecorder stuck = new BlockingRecorder();
        ObserverSession slow = live.openSession(stuck, 16);
        slow.subscribe("app/x", Qos.immediate());
        Recorder fast = new Recorder();
        live.openSession(fast, 8192).subscribe("app/x", Qos.immediate());
        fast.expect(5000);
        x.set(-1);
        assertThat(stuck.blocked.await(30, TimeUnit.SECONDS)).isTrue();
        for (int i = 1; i < 5000; i++) x.set(i);
        assertThat(fast.await()).isTrue();
        assertThat(slow.overflowCount()).isGreaterThanOrEqualTo(5000 - 1 - 16 - 1);
        stuck.release();
        slow.close();
    }

    @Test
    void closingTheSessionClosesTheGates() {
        ObserverSession s = live.openSession(new Recorder());
        s.subscribe("app/**", Qos.immediate());
        assertThat(((LongSensorNode) x).gate()).isNotZero();
        s.close();
        assertThat(((LongSensorNode) x).gate()).isZero();
        assertThat(live.sessions()).isEmpty();
    }
}
