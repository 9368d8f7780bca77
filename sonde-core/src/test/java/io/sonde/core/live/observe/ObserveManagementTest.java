package io.sonde.core.live.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.observe.SubscriptionInfo;
import io.sonde.observer.ObserveException;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Management over the wire (protocol version 2): probe switch, listing and ending subscriptions. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ObserveManagementTest extends EndpointFixture {
    static final Set<ObservedEvent.Kind> VALUES = Set.of(ObservedEvent.Kind.VALUE_CHANGED);

    final LongSensor x = live.object("app", "App").longSensor("x", "", "");

    /** Records deliveries and ended subscriptions. */
    static final class Log implements Observer {
        final List<ObservedEvent> events = new ArrayList<>();
        final List<String> ended = new ArrayList<>();

        @Override
        public synchronized void onEvents(int subscription, List<ObservedEvent> list) {
            events.addAll(list);
            notifyAll();
        }

        @Override
        public synchronized void onSubscriptionEnded(int subscription, int byConnection, String reason) {
            ended.add(subscription + " by " + byConnection + ": " + reason);
            notifyAll();
        }

        synchronized void await(java.util.function.BooleanSupplier done) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!done.getAsBoolean() && System.nanoTime() < deadline) wait(100);
        }
    }

    /** A switch that records its calls in {@code calls} and answers {@code on} / {@code off}. */
    static ProbeSwitch answering(int on, int off, List<String> calls) {
        return new ProbeSwitch() {
            @Override
            public int enable(String pattern) {
                calls.add("on " + pattern);
                return on;
            }

            @Override
            public int disable(String pattern) {
                calls.add("off " + pattern);
                return off;
            }
        };
    }

    @Test
    void probesAreSwitchedThroughTheRegisteredSwitchAndWithoutOneTheAnswerSaysWhy() throws Exception {
        ObserverClient c = connect(new Log());
        assertThatThrownBy(() -> c.enableProbes("com.shop.*"))
                .isInstanceOfSatisfying(ObserveException.class, e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE))
                .hasMessageContaining("no method probes").hasMessageContaining("agent");

        List<String> calls = new ArrayList<>();
        live.registerProbeSwitch(answering(3, 2, calls));
        assertThat(c.enableProbes("com.shop.*")).isEqualTo(3);
        assertThat(c.disableProbes("com.shop.Cart.*")).isEqualTo(2);
        assertThat(calls).containsExactly("on com.shop.*", "off com.shop.Cart.*");
        assertThatThrownBy(() -> c.enableProbes("")).isInstanceOfSatisfying(ObserveException.class,
                e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_BAD_ARGUMENT));
        assertThat(calls).hasSize(2);
    }

    @Test
    void theProcessSwitchTheAgentRegistersServesEveryTreeWithoutOneOfItsOwn() throws Exception {
        ObserverClient c = connect(new Log());
        ProbeSwitch agent = answering(11, 12, new ArrayList<>());
        ProbeSwitch.registerForProcess(agent);
        try {
            assertThat(live.probeSwitch()).containsSame(agent);
            assertThat(c.disableProbes("*")).isEqualTo(12);
            live.registerProbeSwitch(answering(1, 2, new ArrayList<>()));
            assertThat(c.enableProbes("*")).as("the tree's own switch first").isEqualTo(1);
            live.registerProbeSwitch(null);
            assertThat(c.enableProbes("*")).isEqualTo(11);
        } finally {
            ProbeSwitch.registerForProcess(null);
        }
        assertThat(live.probeSwitch()).isEmpty();
    }

    @Test
    void subscriptionsAreListedPerConnectionAndForAll() throws Exception {
        ObserverClient a = connect(new Log());
        ObserverClient b = connect(new Log());
        assertThat(a.connectionId()).isPositive().isNotEqualTo(b.connectionId());
        int sa = a.subscribe("app/x", VALUES, DeliveryQos.batch(10, Duration.ofMillis(50)).asUrgent());
        int sb = b.subscribe("app/**", ObserverClient.ALL_KINDS, DeliveryQos.periodicLatest(Duration.ofMillis(30)));

        assertThat(a.subscriptions(false)).containsExactly(new SubscriptionInfo(a.connectionId(), true, sa, "app/x",
                ObservedEvent.Kind.VALUE_CHANGED.bit(), DeliveryQos.batch(10, Duration.ofMillis(50)).asUrgent()));
        List<SubscriptionInfo> all = b.subscriptions(true);
        assertThat(all).hasSize(2);
        assertThat(all).extracting(SubscriptionInfo::connectionId).containsExactly(a.connectionId(), b.connectionId());
        assertThat(all).extracting(SubscriptionInfo::own).containsExactly(false, true);
        assertThat(all.get(1)).isEqualTo(new SubscriptionInfo(b.connectionId(), true, sb, "app/**", ObserveProtocol.ALL_KINDS_MASK,
                DeliveryQos.periodicLatest(Duration.ofMillis(30))));
    }

    @Test
    void endingAnotherConnectionsSubscriptionTellsItAndStopsItsDeliveries() throws Exception {
        Log owner = new Log();
        ObserverClient a = connect(owner);
        ObserverClient admin = connect(new Log());
        int sub = a.subscribe("app/x", VALUES, DeliveryQos.immediate());
        x.set(1);
        owner.await(() -> owner.events.size() == 1);

        admin.endSubscription(a.connectionId(), sub);
        owner.await(() -> !owner.ended.isEmpty());
        synchronized (owner) {
            assertThat(owner.ended).containsExactly(sub + " by " + admin.connectionId() + ": ended by connection "
                    + admin.connectionId());
        }
        assertThat(a.subscriptions(false)).isEmpty();
        x.set(2);
        assertThat(live.mib().producedEvents()).as("the gate closed with the subscription").isEqualTo(1);

        assertThatThrownBy(() -> admin.endSubscription(a.connectionId(), sub)).isInstanceOfSatisfying(ObserveException.class,
                e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_UNKNOWN_SUBSCRIPTION));
        assertThatThrownBy(() -> admin.endSubscription(999, 1)).hasMessageContaining("no connection 999");
        int own = admin.subscribe("app/x", VALUES, DeliveryQos.immediate());
        admin.endSubscription(0, own); // 0: this connection
        assertThat(admin.subscriptions(true)).isEmpty();
    }

    @Test
    void aVersion1ConnectionKeepsVersion1() throws Exception {
        try (RawConnection v1 = new RawConnection(endpoint.port())) {
            ObserveCodec.hello(v1.w, 1, 1, TOKEN);
            v1.send();
            PayloadReader ok = v1.answer();
            assertThat(ok.type()).isEqualTo(ObserveProtocol.OK);
            ok.u32();
            assertThat(ok.i64()).as("version 1 HELLO result").isZero();

            ObserveCodec.subscribe(v1.w, 2, "app/*", ObserveProtocol.ALL_KINDS_MASK, DeliveryQos.immediate());
            v1.send();
            assertThat(v1.error(ObserveProtocol.ERR_BAD_ARGUMENT)).contains("0..3");
            ObserveCodec.patternRequest(v1.w, ObserveProtocol.PROBES_ON, 3, "*");
            v1.send();
            assertThat(v1.error(ObserveProtocol.ERR_NOT_IN_VERSION)).contains("PROBES_ON").contains("version 1");
            ObserveCodec.subscribe(v1.w, 4, "app/x", ObserveProtocol.V1_KINDS_MASK, DeliveryQos.immediate());
            v1.send();
            assertThat(v1.answer().type()).isEqualTo(ObserveProtocol.OK);

            ObserverClient admin = connect(new Log());
            SubscriptionInfo theirs = admin.subscriptions(true).get(0);
            assertThat(theirs.own()).isFalse();
            assertThatThrownBy(() -> admin.endSubscription(theirs.connectionId(), theirs.subscriptionId()))
                    .hasMessageContaining("version 1");
            assertThat(admin.subscriptions(true)).hasSize(1);
        }
    }
}
