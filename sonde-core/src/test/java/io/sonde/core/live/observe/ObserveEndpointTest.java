package io.sonde.core.live.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.StringSensor;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.ObserveException;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The observe endpoint with real sockets on 127.0.0.1 and the Java observer client. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ObserveEndpointTest extends EndpointFixture {
    static final Set<ObservedEvent.Kind> VALUES = Set.of(ObservedEvent.Kind.VALUE_CHANGED);

    final LongSensor x = live.object("app", "App").longSensor("x", "", "");
    final LongSensor y = live.object("app", "App").longSensor("y", "ms", "why");

    /** Deliveries as the client saw them, with the arrival time. */
    static final class Received implements Observer {
        record Delivery(int subscription, List<ObservedEvent> events, long arrivedNanos) {}

        final List<Delivery> deliveries = new ArrayList<>();
        long overflowTotal;

        @Override
        public synchronized void onEvents(int subscription, List<ObservedEvent> events) {
            deliveries.add(new Delivery(subscription, events, CLOCK.nanos()));
            notifyAll();
        }

        @Override
        public synchronized void onOverflow(long lost, long lostTotal) {
            overflowTotal = lostTotal;
        }

        synchronized List<ObservedEvent> events() {
            List<ObservedEvent> all = new ArrayList<>();
            for (Delivery d : deliveries) all.addAll(d.events);
            return all;
        }

        synchronized List<Delivery> deliveries() {
            return new ArrayList<>(deliveries);
        }

        synchronized void awaitEvents(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (events().size() < n && System.nanoTime() < deadline) wait(100);
            assertThat(events()).as("events received").hasSizeGreaterThanOrEqualTo(n);
        }
    }

    static List<Long> longs(List<ObservedEvent> events) {
        return events.stream().map(e -> (Long) e.value()).toList();
    }

    @Test
    void twoClientsWithDifferentQosGetExactlyTheirSubscriptionsEventsInOrder() throws Exception {
        Received a = new Received();
        Received b = new Received();
        ObserverClient ca = connect(a);
        ObserverClient cb = connect(b);
        int subA = ca.subscribe("app/x", VALUES, DeliveryQos.immediate());
        int subB = cb.subscribe("app/y", VALUES, DeliveryQos.batch(10, Duration.ofMillis(50)));
        for (int i = 1; i <= 95; i++) {
            x.set(i);
            y.set(1000 + i);
        }
        a.awaitEvents(95);
        b.awaitEvents(95);
        assertThat(longs(a.events())).containsExactlyElementsOf(LongStream.rangeClosed(1, 95).boxed().toList());
        assertThat(longs(b.events())).containsExactlyElementsOf(LongStream.rangeClosed(1001, 1095).boxed().toList());
        assertThat(a.deliveries()).allSatisfy(d -> {
            assertThat(d.subscription()).isEqualTo(subA);
            assertThat(d.events()).hasSize(1);
            assertThat(d.events().get(0).path()).isEqualTo("app/x");
        });
        assertThat(b.deliveries()).allSatisfy(d -> {
            assertThat(d.subscription()).isEqualTo(subB);
            assertThat(d.events()).hasSizeBetween(1, 10);
            // the oldest event of a batch waited at most the flush timeout (50 ms), plus slack for a busy machine
            assertThat(d.arrivedNanos() - d.events().get(0).timeNanos()).isLessThan(TimeUnit.MILLISECONDS.toNanos(50 + 1000));
        });
        // 95 events in batches of at most 10: the last, partial batch came by the flush timeout
        assertThat(b.deliveries()).hasSizeGreaterThanOrEqualTo(10);
        ObservedEvent last = b.events().get(94);
        assertThat(last.timeNanos()).isPositive();
        assertThat(endpoint.connections()).isEqualTo(2);
    }

    @Test
    void anEventForTwoConnectionsIsEncodedOnce() throws Exception {
        Received a = new Received();
        Received b = new Received();
        connect(a).subscribe("app/*", VALUES, DeliveryQos.immediate());
        connect(b).subscribe("app/**", VALUES, DeliveryQos.periodic(Duration.ofMillis(20)));
        long before = ObserveConnection.ENCODED_EVENTS.sum();
        for (int i = 1; i <= 50; i++) x.set(i);
        a.awaitEvents(50);
        b.awaitEvents(50);
        assertThat(ObserveConnection.ENCODED_EVENTS.sum() - before).isEqualTo(50);
        assertThat(a.events()).isEqualTo(b.events());
    }

    @Test
    void listGetSuspendResumeAndUnsubscribe() throws Exception {
        Received a = new Received();
        ObserverClient c = connect(a);
        y.set(7);
        ObserverClient.Listing l = c.list("app/**");
        assertThat(l.objects()).extracting(o -> o.path()).containsExactly("app");
        assertThat(l.attributes()).extracting(at -> at.path() + " " + at.valueType() + " " + at.unit()).containsExactly("app/x LONG ",
                "app/y LONG ms");
        assertThat(c.get("app/y")).singleElement().satisfies(v -> assertThat(v.value()).isEqualTo(7L));
        int sub = c.subscribe("app/x", VALUES, DeliveryQos.immediate());
        assertThat(c.suspend("app/x")).isEqualTo(1);
        x.set(1); // suspended: nothing
        assertThat(c.resume("app/x")).isEqualTo(1);
        x.set(2);
        a.awaitEvents(1);
        assertThat(longs(a.events())).containsExactly(2L);
        c.unsubscribe(sub);
        assertThatThrownBy(() -> c.unsubscribe(sub)).isInstanceOf(ObserveException.class)
                .satisfies(e -> assertThat(((ObserveException) e).code()).isEqualTo(ObserveProtocol.ERR_UNKNOWN_SUBSCRIPTION));
    }

    @Test
    void aWrongTokenIsRefusedAndOpensNoSession() {
        assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", endpoint.port(), "guess", new Received()))
                .isInstanceOf(ObserveException.class).hasMessageContaining("wrong token")
                .satisfies(e -> assertThat(((ObserveException) e).code()).isEqualTo(ObserveProtocol.ERR_BAD_TOKEN));
        assertThat(live.sessions()).isEmpty();
    }


    @Test
    void aRequestBeforeHelloIsRefused() throws Exception {
        try (RawConnection raw = new RawConnection(endpoint.port())) {
            ObserveCodec.patternRequest(raw.w, ObserveProtocol.LIST, 1, "**");
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_BAD_TOKEN)).contains("first message must be HELLO");
            assertThat(raw.in.next()).as("closed after the refusal").isNull();
        }
        assertThat(live.sessions()).isEmpty();
    }

    @Test
    void malformedRequestsAndUnknownPathsGetErrorsAndChangeNothing() throws Exception {
        Received other = new Received();
        connect(other).subscribe("app/y", VALUES, DeliveryQos.immediate());
        try (RawConnection raw = new RawConnection(endpoint.port())) {
            ObserveCodec.hello(raw.w, 1, ObserveProtocol.PROTOCOL_VERSION, TOKEN);
            raw.send();
            assertThat(raw.answer().type()).isEqualTo(ObserveProtocol.OK);
            raw.w.begin(ObserveProtocol.SUBSCRIBE).u32(2).str("app/x").u8(1); // truncated
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_MALFORMED)).contains("SUBSCRIBE").contains("needs");
            raw.w.begin((byte) 0x7F).u32(3);
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_MALFORMED)).contains("0x7f");
            ObserveCodec.patternRequest(raw.w, ObserveProtocol.GET, 4, "app/nothing");
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_UNKNOWN_PATH)).contains("app/nothing");
            ObserveCodec.subscribe(raw.w, 5, "app/x", 0, DeliveryQos.immediate());
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_BAD_ARGUMENT)).contains("kinds mask");
            ObserveCodec.patternRequest(raw.w, ObserveProtocol.SUSPEND, 6, "app/[");
            raw.send();
            raw.error(ObserveProtocol.ERR_UNKNOWN_PATH);
            // nothing changed: no subscription was made, and the session still answers
            ObserveCodec.patternRequest(raw.w, ObserveProtocol.LIST, 7, "app");
            raw.send();
            assertThat(raw.answer().type()).isEqualTo(ObserveProtocol.LISTING);
            assertThat(live.sessions()).hasSize(2).allSatisfy(s -> assertThat(s.subscriptions()).hasSizeLessThanOrEqualTo(1));
        }
        y.set(5);
        other.awaitEvents(1);
        assertThat(longs(other.events())).containsExactly(5L);
    }

    @Test
    void aClientLeavingMidDeliveryDoesNotDisturbTheOthers() throws Exception {
        Received stays = new Received();
        Received leaves = new Received();
        connect(stays).subscribe("app/x", VALUES, DeliveryQos.immediate());
        ObserverClient leaving = connect(leaves);
        leaving.subscribe("app/x", VALUES, DeliveryQos.batch(5, Duration.ofMillis(5)));
        for (int i = 1; i <= 2000; i++) {
            x.set(i);
            if (i == 200) {
                leaves.awaitEvents(1);
                leaving.close();
            }
            if (i % 500 == 0) stays.awaitEvents(i); // pace the producer below the queue capacity
        }
        stays.awaitEvents(2000);
        assertThat(longs(stays.events())).containsExactlyElementsOf(LongStream.rangeClosed(1, 2000).boxed().toList());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (endpoint.connections() != 1 && System.nanoTime() < deadline) Thread.sleep(10);
        assertThat(endpoint.connections()).isEqualTo(1);
        assertThat(live.sessions()).hasSize(1);
    }

    @Test
    void aConnectionThatStopsReadingFillsOnlyItsOwnQueue() throws Exception {
        StringSensor text = live.object("app", "App").stringSensor("text", "", "");
        Received healthy = new Received();
        connect(healthy).subscribe("app/text", VALUES, DeliveryQos.immediate());
        try (RawConnection stalled = new RawConnection(endpoint.port())) {
            stalled.socket.setReceiveBufferSize(4096);
            ObserveCodec.hello(stalled.w, 1, ObserveProtocol.PROTOCOL_VERSION, TOKEN);
            stalled.send();
            assertThat(stalled.answer().type()).isEqualTo(ObserveProtocol.OK);
            ObserveCodec.subscribe(stalled.w, 2, "app/text", ObserveProtocol.ALL_KINDS_MASK, DeliveryQos.immediate());
            stalled.send();
            assertThat(stalled.answer().type()).isEqualTo(ObserveProtocol.OK);
            // from here the stalled connection reads nothing
            String pad = "p".repeat(2000);
            int n = 12_000;
            for (int i = 1; i <= n; i++) {
                text.set(i + pad);
                if (i % 1000 == 0) healthy.awaitEvents(i);
            }
            healthy.awaitEvents(n);
            List<ObservedEvent> got = healthy.events();
            for (int i = 0; i < n; i++) assertThat((String) got.get(i).value()).startsWith((i + 1) + "p");
            assertThat(healthy.overflowTotal).isZero();
            ObserverSession stalledSession = live.sessions().stream().filter(s -> s.overflowCount() > 0).findFirst().orElseThrow();
            assertThat(stalledSession.overflowCount()).isPositive();
        }
    }

    @Test
    void aTokenFileMustBeReadableOnlyByItsOwner(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path f = dir.resolve("observe.token");
        java.nio.file.Files.writeString(f, TOKEN + "\n");
        java.nio.file.Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertThat(ObserveService.tokenFromFile(f)).isEqualTo(TOKEN);
        java.nio.file.Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> ObserveService.tokenFromFile(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("observe.token").hasMessageContaining("readable only by its owner");
    }

    @Test
    void aBadPortOrEmptyTokenIsRefusedAtStart() {
        assertThatThrownBy(() -> live.observe(70000, TOKEN)).hasMessageContaining("70000");
        assertThatThrownBy(() -> live.observe(0, "")).hasMessageContaining("token");
    }
}
