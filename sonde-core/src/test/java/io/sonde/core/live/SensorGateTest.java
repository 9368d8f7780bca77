package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.BooleanSensor;
import io.sonde.api.live.DoubleSensor;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Qos;
import io.sonde.api.live.StringSensor;
import io.sonde.api.live.Subscription;
import io.sonde.core.live.mib.LongSensorNode;
import io.sonde.core.live.mib.ManualClock;
import io.sonde.core.live.mib.ObjectNode;
import io.sonde.core.live.session.ObserverEndpoint;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Value sensitivity, the gate (no subscriber, suspended, unsubscribed) and object events. */
class SensorGateTest {
    final ManualClock clock = new ManualClock();
    final LiveRuntime live = LiveRuntime.bare(clock);
    final Recorder seen = new Recorder();
    final ObserverEndpoint session = live.openManualSession(seen, 1024);

    @Test
    void valueSensitiveSensorsEmitOnlyOnChange() {
        MonitoredObject o = live.object("app/state", "State");
        LongSensor l = o.longSensor("l", "", "");
        DoubleSensor d = o.doubleSensor("d", "", "");
        BooleanSensor b = o.booleanSensor("b", "", "");
        StringSensor s = o.stringSensor("s", "", "");
        session.subscribe("app/state/*", Qos.immediate());
        l.set(0); // unchanged from the initial 0
        l.set(5);
        l.set(5);
        l.add(0);
        l.add(2);
        d.set(1.5);
        d.set(1.5);
        d.set(Double.NaN);
        d.set(Double.NaN); // NaN equals NaN
        d.set(-0.0);
        d.set(0.0); // different bits: a change
        b.set(false);
        b.set(true);
        b.set(true);
        s.set(null);
        s.set("open");
        s.set(new String("open"));
        s.set(null);
        session.pump();
        assertThat(seen.events()).extracting(e -> e.sourcePath() + "=" + e.value()).containsExactly(
                "app/state/l=5", "app/state/l=7", "app/state/d=1.5", "app/state/d=NaN", "app/state/d=-0.0",
                "app/state/d=0.0", "app/state/b=true", "app/state/s=open", "app/state/s=null");
        assertThat(seen.events()).allMatch(e -> e.kind() == EventKind.VALUE_CHANGED);
        assertThat(live.mib().producedEvents()).isEqualTo(9);
    }

    @Test
    void withoutSubscriberNothingIsGenerated() {
        LongSensorNode l = (LongSensorNode) live.object("a", "A").longSensor("x", "", "");
        session.subscribe("b/**", Qos.immediate()); // elsewhere
        for (int i = 0; i < 1000; i++) l.set(i);
        l.add(3);
        assertThat(l.gate()).isZero();
        assertThat(l.get()).isEqualTo(1002);
        assertThat(l.producedEvents()).isZero();
        assertThat(live.mib().producedEvents()).isZero();
        session.pump();
        assertThat(seen.events()).isEmpty();
    }

    @Test
    void subscribeOpensTheGateAlsoForLaterSensorsAndTheLastCancelClosesIt() {
        LongSensorNode early = (LongSensorNode) live.object("shop/orders/1", "Order").longSensor("items", "", "");
        Subscription a = session.subscribe("shop/orders/*/items", Qos.immediate());
        Recorder other = new Recorder();
        Subscription b = live.openManualSession(other, 16).subscribe("shop/**", Qos.immediate());
        LongSensorNode late = (LongSensorNode) live.object("shop/orders/2", "Order").longSensor("items", "", "");
        assertThat(early.gate()).isNotZero();
        assertThat(late.gate()).isNotZero();
        a.cancel();
        assertThat(late.gate()).as("still wanted by b").isNotZero();
        b.cancel();
        assertThat(early.gate()).isZero();
        assertThat(late.gate()).isZero();
        assertThat(a.isActive()).isFalse();
        long before = live.mib().producedEvents();
        early.set(99);
        late.set(99);
        assertThat(live.mib().producedEvents()).isEqualTo(before);
        assertThat(session.subscriptions()).isEmpty();
    }

    /**
     * Objects and sensors created and written while nobody watched (no path built, gates shut) give
     * a later subscriber the right paths, ids and values, and their object events.
     */
    @Test
    void aSubscriberArrivingAfterCreationSeesTheRightState() {
        MonitoredObject requests = live.object("app/requests", "Requests");
        MonitoredObject r1 = requests.createChild("r1", "Request");
        LongSensor bytes = r1.longSensor("bytes", "B", "");
        StringSensor state = r1.stringSensor("state", "", "");
        bytes.set(10);
        state.set("open");
        assertThat(live.mib().producedEvents()).isZero();
        session.subscribe("app/**", Qos.immediate());
        assertThat(live.pull("app/requests/r1/*")).extracting(v -> v.path() + "=" + v.value())
                .containsExactly("app/requests/r1/bytes=10", "app/requests/r1/state=open");
        bytes.set(11);
        MonitoredObject r2 = requests.createChild("r2", "Request");
        r1.delete();
        session.pump();
        assertThat(seen.events()).extracting(e -> e.kind() + " " + e.sourcePath() + " " + e.sourceId())
                .containsExactly("VALUE_CHANGED app/requests/r1/bytes " + bytes.id(),
                        "CHILD_ADDED app/requests " + requests.id(),
                        "OBJECT_DELETED app/requests/r1 " + r1.id(),
                        "CHILD_REMOVED app/requests " + requests.id());
        assertThat(seen.events().get(1).childPath()).isEqualTo("app/requests/r2");
        assertThat(seen.events().get(1).childId()).isEqualTo(r2.id());
        assertThat(seen.events().get(3).childPath()).isEqualTo("app/requests/r1");
    }

    @Test
    void suspendedSensorsGenerateNothingUntilResumed() {
        ObjectNode o = live.mib().object("shop/stock", "Stock");
        LongSensorNode apples = (LongSensorNode) o.longSensor("apples", "", "");
        session.subscribe("shop/**", EnumSet.of(EventKind.VALUE_CHANGED), Qos.immediate());
        assertThat(live.suspend("shop/stock/*")).isEqualTo(1);
        LongSensorNode pears = (LongSensorNode) o.longSensor("pears", "", ""); // created while suspended
        apples.set(1);
        pears.set(1);
        assertThat(apples.gate()).isZero();
        assertThat(pears.gate()).isZero();
        assertThat(live.mib().producedEvents()).isZero();
        assertThat(live.resume("shop/stock/*")).isEqualTo(2);
        apples.set(2);
        pears.set(2);
        session.pump();
        assertThat(seen.events()).extracting(LiveEvent::sourcePath, LiveEvent::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("shop/stock/apples", 2L),
                        org.assertj.core.groups.Tuple.tuple("shop/stock/pears", 2L));
    }

    @Test
    void oneEventInstanceIsSharedByEverySession() {
        LongSensor l = live.object("a", "A").longSensor("x", "", "");
        Recorder r2 = new Recorder();
        Recorder r3 = new Recorder();
        ObserverEndpoint s2 = live.openManualSession(r2, 16);
        ObserverEndpoint s3 = live.openManualSession(r3, 16);
        session.subscribe("a/x", Qos.immediate());
        s2.subscribe("a/*", Qos.batch(1, java.time.Duration.ofMillis(5)));
        s3.subscribe("**", Qos.periodic(java.time.Duration.ofMillis(10)).urgent());
        l.set(1);
        session.pump();
        s2.pump();
        clock.advance(java.time.Duration.ofMillis(10));
        s3.pump();
        LiveEvent e = seen.events().get(0);
        assertThat(r2.events().get(0)).isSameAs(e);
        assertThat(r3.events().get(0)).isSameAs(e);
        assertThat(live.mib().producedEvents()).isEqualTo(1);
    }

    @Test
    void objectSensorsReportChildrenAddedRemovedAndDeletion() {
        MonitoredObject orders = live.object("shop/orders", "Orders");
        session.subscribe("shop/orders", EnumSet.of(EventKind.CHILD_ADDED, EventKind.CHILD_REMOVED), Qos.immediate());
        session.subscribe("shop/orders/*", EnumSet.of(EventKind.OBJECT_DELETED), Qos.immediate());
        MonitoredObject o = orders.createChild("4711", "Order");
        LongSensorNode items = (LongSensorNode) o.longSensor("items", "", "");
        assertThat(items.gate()).as("no subscription wants its values").isZero();
        o.delete();
        session.pump();
        List<LiveEvent> events = seen.events();
        assertThat(events).extracting(LiveEvent::kind).containsExactly(EventKind.CHILD_ADDED,
                EventKind.OBJECT_DELETED, EventKind.CHILD_REMOVED);
        assertThat(events.get(0).sourcePath()).isEqualTo("shop/orders");
        assertThat(events.get(0).childPath()).isEqualTo("shop/orders/4711");
        assertThat(events.get(0).childId()).isEqualTo(o.id());
        assertThat(events.get(1).sourcePath()).isEqualTo("shop/orders/4711");
        assertThat(events.get(2).childPath()).isEqualTo("shop/orders/4711");
    }

    @Test
    void notificationsAreGatedLikeEveryOtherEvent() {
        MonitoredObject o = live.object("app/alarms", "Alarms");
        o.sendNotification("app.alarm", "nobody listens", 1, null);
        assertThat(live.mib().producedEvents()).isZero();
        Subscription values = session.subscribe("app/alarms", EnumSet.of(EventKind.CHILD_ADDED), Qos.immediate());
        o.sendNotification("app.alarm", "not wanted: only CHILD_ADDED", 2, null);
        assertThat(live.mib().producedEvents()).isZero();
        Subscription notes = session.subscribe("app/*", EnumSet.of(EventKind.NOTIFICATION), Qos.immediate());
        o.sendNotification("app.alarm", "disk full", 3, "sda1");
        live.suspend("app/alarms");
        o.sendNotification("app.alarm", "suspended", 4, null);
        live.resume("app/alarms");
        session.pump(); // before the cancel, which drops what is still queued for it
        notes.cancel();
        values.cancel();
        o.sendNotification("app.alarm", "after the cancel", 5, null);
        assertThat(seen.events()).hasSize(1);
        LiveEvent e = seen.events().get(0);
        assertThat(e.kind()).isEqualTo(EventKind.NOTIFICATION);
        assertThat(e.sourcePath()).isEqualTo("app/alarms");
        assertThat(e.sourceId()).isEqualTo(o.id());
        assertThat(e.notification()).isEqualTo(new io.sonde.api.live.Notification("app.alarm", "disk full", 3, "sda1"));
        assertThat(e.value()).isNull();
        assertThat(live.mib().producedEvents()).isEqualTo(1);
    }

    @Test
    void pullAndIntrospectionNeedNoSubscription() {
        LongSensor l = live.object("app", "App").longSensor("requests", "count", "requests served");
        live.object("app", "App").stringAttribute("version", "", "build", () -> "1.2");
        l.set(17);
        assertThat(live.pull("app/*")).extracting(v -> v.path() + "=" + v.value())
                .containsExactly("app/requests=17", "app/version=1.2");
        assertThat(live.attributes("app/**")).extracting(a -> a.name() + ":" + a.type() + ":" + a.unit())
                .containsExactly("requests:LONG:count", "version:STRING:");
        assertThat(live.mib().producedEvents()).isZero();
    }
}
