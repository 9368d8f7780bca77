package io.sonde.core.live.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.Qos;
import io.sonde.api.live.ValueType;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.Recorder;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.session.ObserverEndpoint;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.AttributeChangeNotification;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.NotificationBroadcasterSupport;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MBeanBridgeTest {
    /** An application MBean: attributes of each simple type, one of an unsupported type, notifications. */
    public interface CounterMBean {
        long getCount();

        int getLimit();

        double getRatio();

        boolean isOpen();

        String getState();

        int[] getHistory();
    }

    public static final class Counter extends NotificationBroadcasterSupport implements CounterMBean {
        volatile long count;
        volatile String state = "idle";
        long sequence;

        @Override
        public long getCount() {
            return count;
        }

        @Override
        public int getLimit() {
            return 10;
        }

        @Override
        public double getRatio() {
            return count / 10.0;
        }

        @Override
        public boolean isOpen() {
            return count < 10;
        }

        @Override
        public String getState() {
            return state;
        }

        @Override
        public int[] getHistory() {
            return new int[0];
        }

        void setCount(long v) {
            long old = count;
            count = v;
            sendNotification(new AttributeChangeNotification(this, ++sequence, 7L, "count changed", "Count", "long", old, v));
        }
    }

    /** An MXBean with a composite attribute. */
    public interface PoolMXBean {
        MemoryUsage getUsage();
    }

    public static final class Pool implements PoolMXBean {
        volatile long used = 5;

        @Override
        public MemoryUsage getUsage() {
            return new MemoryUsage(1, used, 100, 200);
        }
    }

    final LiveRuntime live = LiveRuntime.bare(LiveClock.system());
    final MBeanServer server = MBeanServerFactory.newMBeanServer();
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) c.close();
        live.close();
    }

    MBeanBridge bridge(String pattern) throws Exception {
        MBeanBridge b = (MBeanBridge) live.bridgeJmx(server, new ObjectName(pattern), Duration.ofHours(1)); // tests sample by hand
        toClose.add(b);
        return b;
    }

    static final String COUNTER = "jmx/shop/type=Counter,name=orders%20in";

    Counter registerCounter() throws Exception {
        Counter c = new Counter();
        server.registerMBean(c, new ObjectName("shop:type=Counter,name=orders in"));
        return c;
    }

    @Test
    void anApplicationMBeansSimpleAttributesAreSuppliedAttributesReadOnPull() throws Exception {
        Counter c = registerCounter();
        MBeanBridge b = bridge("shop:*");
        assertThat(b.bridgedPaths()).containsExactly(COUNTER);
        assertThat(b.problems()).isEmpty();
        assertThat(live.find(COUNTER).orElseThrow().type()).isEqualTo(Counter.class.getName());
        assertThat(live.attributes(COUNTER + "/*")).extracting(Attribute::name)
                .containsExactlyInAnyOrder("Count", "Limit", "Ratio", "Open", "State"); // History (int[]) is left out
        assertThat(live.findAttribute(COUNTER + "/Limit").orElseThrow().type()).isEqualTo(ValueType.LONG);
        assertThat(live.findAttribute(COUNTER + "/Ratio").orElseThrow().type()).isEqualTo(ValueType.DOUBLE);
        assertThat(live.findAttribute(COUNTER + "/Open").orElseThrow().type()).isEqualTo(ValueType.BOOLEAN);
        assertThat(live.findAttribute(COUNTER + "/State").orElseThrow().type()).isEqualTo(ValueType.STRING);

        c.count = 4;
        c.state = "busy";
        assertThat(live.pull(COUNTER + "/*")).extracting(AttributeValue::value)
                .containsExactly(4L, 10L, true, 0.4, "busy"); // in path order: Count, Limit, Open, Ratio, State
        c.count = 12;
        assertThat(live.findAttribute(COUNTER + "/Open").orElseThrow().read().value()).isEqualTo(false);
        assertThat(live.mib().producedEvents()).as("pull generates no event").isZero();
    }

    @Test
    void aCompositeAttributeIsFlattenedOneLevel() throws Exception {
        Pool p = new Pool();
        server.registerMBean(p, new ObjectName("shop:type=Pool"));
        bridge("shop:type=Pool");
        assertThat(live.find("jmx/shop/type=Pool/Usage").orElseThrow().type()).isEqualTo("java.lang.management.MemoryUsage");
        assertThat(live.pull("jmx/shop/type=Pool/Usage/*")).extracting(AttributeValue::path, AttributeValue::value).containsExactly(
                org.assertj.core.groups.Tuple.tuple("jmx/shop/type=Pool/Usage/committed", 100L),
                org.assertj.core.groups.Tuple.tuple("jmx/shop/type=Pool/Usage/init", 1L),
                org.assertj.core.groups.Tuple.tuple("jmx/shop/type=Pool/Usage/max", 200L),
                org.assertj.core.groups.Tuple.tuple("jmx/shop/type=Pool/Usage/used", 5L));
        p.used = 6;
        assertThat(live.findAttribute("jmx/shop/type=Pool/Usage/used").orElseThrow().read().value()).isEqualTo(6L);
    }

    @Test
    void thePlatformServersMemoryMBeanIsBridged() throws Exception {
        MBeanBridge b = (MBeanBridge) live.bridgeJmx(ManagementFactory.getPlatformMBeanServer(),
                new ObjectName("java.lang:type=Memory"));
        toClose.add(b);
        assertThat(b.bridgedPaths()).containsExactly("jmx/java.lang/type=Memory");
        Object used = live.findAttribute("jmx/java.lang/type=Memory/HeapMemoryUsage/used").orElseThrow().read().value();
        assertThat((Long) used).isPositive();
        assertThat(live.findAttribute("jmx/java.lang/type=Memory/Verbose").orElseThrow().type()).isEqualTo(ValueType.BOOLEAN);
    }

    @Test
    void onlySubscribedAttributesAreSampledAndAChangedValueIsAnEvent() throws Exception {
        Counter c = registerCounter();
        MBeanBridge b = bridge("shop:*");
        assertThat(b.sampleOnce()).as("gates closed: nothing sampled").isZero();

        Recorder r = new Recorder();
        ObserverEndpoint s = live.openManualSession(r, 64);
        var sub = s.subscribe(COUNTER + "/Count", EnumSet.of(EventKind.VALUE_CHANGED), Qos.immediate());
        assertThat(b.sampleOnce()).isEqualTo(1); // the first sample reports the value it found
        c.count = 3;
        assertThat(b.sampleOnce()).isEqualTo(1);
        assertThat(b.sampleOnce()).isEqualTo(1); // unchanged: no event
        c.count = 5;
        b.sampleOnce();
        s.pump();
        assertThat(r.events()).extracting(LiveEvent::sourcePath).containsOnly(COUNTER + "/Count");
        assertThat(r.events()).extracting(LiveEvent::longValue).containsExactly(0L, 3L, 5L);

        sub.cancel();
        c.count = 6;
        assertThat(b.sampleOnce()).isZero();
        s.pump();
        assertThat(r.events()).hasSize(3);
    }

    @Test
    void theSamplerThreadSamplesASubscribedAttributeEveryPeriod() throws Exception {
        Counter c = registerCounter();
        MBeanBridge b = (MBeanBridge) live.bridgeJmx(server, new ObjectName("shop:*"), Duration.ofMillis(10));
        toClose.add(b);
        Recorder r = new Recorder();
        var s = live.openSession(r); // with its own dispatcher thread
        toClose.add(s);
        r.expect(1);
        s.subscribe(COUNTER + "/State", EnumSet.of(EventKind.VALUE_CHANGED), Qos.immediate());
        assertThat(r.await()).as("the first sample").isTrue();
        r.expect(1);
        c.state = "busy";
        assertThat(r.await()).as("the change, sampled by the bridge's thread").isTrue();
        assertThat(r.events()).extracting(LiveEvent::stringValue).containsExactly("idle", "busy");
    }

    @Test
    void mbeansRegisteredAndUnregisteredLaterAppearAndDisappear() throws Exception {
        server.registerMBean(new Pool(), new ObjectName("shop:type=Pool"));
        MBeanBridge b = bridge("shop:*");
        Recorder r = new Recorder();
        ObserverEndpoint s = live.openManualSession(r, 64);
        s.subscribe("jmx/shop/**", EnumSet.of(EventKind.CHILD_ADDED, EventKind.CHILD_REMOVED, EventKind.OBJECT_DELETED),
                Qos.immediate());

        server.registerMBean(new Counter(), new ObjectName("shop:type=Counter,name=orders in"));
        server.registerMBean(new Counter(), new ObjectName("other:type=Counter")); // not matching the pattern
        assertThat(b.bridgedPaths()).containsExactly("jmx/shop/type=Counter,name=orders%20in", "jmx/shop/type=Pool");
        assertThat(live.find("jmx/other")).isEmpty();
        assertThat(live.pull(COUNTER + "/State")).extracting(AttributeValue::value).containsExactly("idle");

        server.unregisterMBean(new ObjectName("shop:type=Counter,name=orders in"));
        assertThat(b.bridgedPaths()).containsExactly("jmx/shop/type=Pool");
        assertThat(live.find(COUNTER)).isEmpty();
        assertThat(live.findAttribute(COUNTER + "/State")).isEmpty();
        s.pump();
        assertThat(r.events()).extracting(e -> e.kind() + " " + e.sourcePath() + (e.childPath() == null ? "" : " " + e.childPath()))
                .containsExactly("CHILD_ADDED jmx/shop " + COUNTER, "OBJECT_DELETED " + COUNTER,
                        "CHILD_REMOVED jmx/shop " + COUNTER);

        b.close();
        assertThat(live.find("jmx/shop/type=Pool")).isEmpty();
        server.registerMBean(new Counter(), new ObjectName("shop:type=Counter,name=late"));
        assertThat(live.find("jmx/shop/type=Counter,name=late")).as("a closed bridge follows nothing").isEmpty();
    }

    @Test
    void aNotificationIsAnEventDeliveredOverARealObserveConnection() throws Exception {
        Counter c = registerCounter();
        bridge("shop:*");
        ObserveService endpoint = live.observe(0, "tok");
        toClose.add(endpoint);
        List<ObservedEvent> received = new ArrayList<>();
        Observer o = (sub, events) -> {
            synchronized (received) {
                received.addAll(events);
                received.notifyAll();
            }
        };
        ObserverClient client = ObserverClient.connect("127.0.0.1", endpoint.port(), "tok", o);
        toClose.add(client);
        c.setCount(1); // nobody subscribed: nothing generated
        client.subscribe("jmx/shop/*", Set.of(ObservedEvent.Kind.NOTIFICATION), DeliveryQos.immediate());
        c.setCount(2);
        synchronized (received) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (received.isEmpty() && System.nanoTime() < deadline) received.wait(100);
        }
        assertThat(received).hasSize(1);
        ObservedEvent e = received.get(0);
        assertThat(e.kind()).isEqualTo(ObservedEvent.Kind.NOTIFICATION);
        assertThat(e.path()).isEqualTo(COUNTER);
        assertThat(e.sourceId()).isEqualTo(live.find(COUNTER).orElseThrow().id());
        assertThat(e.notification().type()).isEqualTo(AttributeChangeNotification.ATTRIBUTE_CHANGE);
        assertThat(e.notification().message()).isEqualTo("count changed");
        assertThat(e.notification().sequence()).isEqualTo(2);
        assertThat(e.notification().userData()).isEqualTo("Count: 1 -> 2");
        assertThat(live.mib().producedEvents()).isEqualTo(1);
    }

    @Test
    void namesAreEscapedReversibly() {
        for (String s : new String[] {"type=Memory", "name=G1 Eden Space", "a/b*c?d#e%f\tg", "x\u2003y", ""}) {
            String e = JmxPaths.escape(s);
            assertThat(e).doesNotContain("/", "*", "?", "#", " ", "\t").isNotEmpty();
            assertThat(JmxPaths.unescape(e)).isEqualTo(s);
        }
        assertThat(JmxPaths.escape("name=G1 Eden Space")).isEqualTo("name=G1%20Eden%20Space");
    }
}
