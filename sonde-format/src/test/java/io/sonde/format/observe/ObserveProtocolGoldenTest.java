package io.sonde.format.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The golden byte vectors of docs/observe-protocol.md: every message kind encoded here must appear
 * in the document, byte for byte, and decode back to what was encoded.
 */
class ObserveProtocolGoldenTest {
    static final Path DOC = Path.of("..", "docs", "observe-protocol.md");

    static LiveFrameWriter writer() {
        return new LiveFrameWriter(new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L), 4242, "", () -> 1_000L, () -> 2_000L);
    }

    static final SubscriptionInfo LISTED = new SubscriptionInfo(2, false, 1, "app/*", ObservedEvent.Kind.VALUE_CHANGED.bit(),
            DeliveryQos.batch(10, Duration.ofMillis(50)).asUrgent());
    static final ObservedNotification NOTIFICATION = new ObservedNotification("jmx.attribute.change", "m", 5, "d");

    static final ProbeListing PROBES = new ProbeListing(3, 0, List.of(
            new ProbeInfo(5, "com.shop.Cart.add", "(I)V", true, ProbeInfo.Origin.CONFIGURED, ""),
            new ProbeInfo(6, "com.shop.Cart.pay", "()Z", false, ProbeInfo.Origin.SWITCHED, "off: com.shop.Cart.pay")));

    /** Payload bytes (message type onwards) of one message of each kind. */
    static Map<String, byte[]> goldens() {
        Map<String, byte[]> g = new LinkedHashMap<>();
        LiveFrameWriter w = writer();
        ObserveCodec.hello(w, 1, 1, "tok"); // a version 1 HELLO: its vector is unchanged since version 1
        g.put("HELLO", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.LIST, 2, "app/**");
        g.put("LIST", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.GET, 3, "app/x");
        g.put("GET", payload(w));
        ObserveCodec.subscribe(w, 4, "app/*", ObservedEvent.Kind.VALUE_CHANGED.bit(), DeliveryQos.batch(10, Duration.ofMillis(50)).asUrgent());
        g.put("SUBSCRIBE", payload(w));
        ObserveCodec.unsubscribe(w, 5, 1);
        g.put("UNSUBSCRIBE", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.SUSPEND, 6, "jvm/**");
        g.put("SUSPEND", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.RESUME, 7, "jvm/**");
        g.put("RESUME", payload(w));
        ObserveCodec.ok(w, 4, 1);
        g.put("OK", payload(w));
        ObserveCodec.error(w, 3, ObserveProtocol.ERR_UNKNOWN_PATH, "no app/q");
        g.put("ERROR", payload(w));
        ObserveCodec.listing(w, 2, List.of(new ObjectInfo(1, "app", "App")), List.of(new AttributeInfo(2, "app/x", "LONG", true, "ms", "x")));
        g.put("LISTING", payload(w));
        ObserveCodec.values(w, 3, List.of(new AttributeReading(2, "app/x", "ms", 7L, 5L)));
        g.put("VALUES", payload(w));
        ObserveCodec.eventsHead(w, 1, 2);
        w.bytes(ObserveCodec.encodeEvent(ObserveProtocol.KIND_VALUE_CHANGED, 2, "app/x", 9L, 1.5, 0, null));
        w.bytes(ObserveCodec.encodeEvent(ObserveProtocol.KIND_CHILD_ADDED, 1, "app", 10L, null, 3, "app/c"));
        g.put("EVENTS", payload(w));
        ObserveCodec.overflow(w, 3, 8);
        g.put("OVERFLOW", payload(w));
        // ---- added in protocol version 2
        ObserveCodec.hello(w, 1, 2, "tok");
        g.put("HELLO_V2", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.PROBES_ON, 8, "com.shop.*");
        g.put("PROBES_ON", payload(w));
        ObserveCodec.patternRequest(w, ObserveProtocol.PROBES_OFF, 9, "com.shop.*");
        g.put("PROBES_OFF", payload(w));
        ObserveCodec.subscriptions(w, 10, ObserveProtocol.SCOPE_ALL);
        g.put("SUBSCRIPTIONS", payload(w));
        ObserveCodec.endSubscription(w, 11, 2, 1);
        g.put("END_SUBSCRIPTION", payload(w));
        ObserveCodec.subscriptionList(w, 10, List.of(LISTED));
        g.put("SUBSCRIPTION_LIST", payload(w));
        ObserveCodec.subscriptionEnded(w, 1, 3, "ended by connection 3");
        g.put("SUBSCRIPTION_ENDED", payload(w));
        ObserveCodec.eventsHead(w, 2, 1);
        w.bytes(ObserveCodec.encodeNotification(1, "app", 11L, NOTIFICATION));
        g.put("EVENTS_NOTIFICATION", payload(w));
        ObserveCodec.relay(w, 1, 2, "tok", "da246fa0");
        g.put("RELAY", payload(w));
        // ---- added in protocol version 3
        ObserveCodec.hello(w, 1, 3, "tok");
        g.put("HELLO_V3", payload(w));
        ObserveCodec.probeList(w, 12, "com.shop.*", 0, 2);
        g.put("PROBE_LIST", payload(w));
        ObserveCodec.probeListing(w, 12, PROBES);
        g.put("PROBE_LISTING", payload(w));
        return g;
    }

    static byte[] payload(LiveFrameWriter w) {
        byte[] frame = w.seal();
        return java.util.Arrays.copyOfRange(frame, w.payloadOffset(), frame.length);
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(s.length() == 0 ? "" : " ").append(String.format("%02x", x & 0xFF));
        return s.toString();
    }

    /** The `NAME: hex` lines of the document. */
    static Map<String, String> documented() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher x = Pattern.compile("(?m)^([A-Z0-9_]+(?: frame)?): ((?:[0-9a-f]{2} ?)+)$").matcher(Files.readString(DOC, StandardCharsets.UTF_8));
        while (x.find()) m.put(x.group(1), x.group(2).trim());
        return m;
    }

    @Test
    void everyMessageKindMatchesItsGoldenVectorInTheDocument() throws IOException {
        Map<String, String> doc = documented();
        Map<String, String> actual = new LinkedHashMap<>();
        goldens().forEach((k, v) -> actual.put(k, hex(v)));
        LiveFrameWriter w = writer();
        ObserveCodec.hello(w, 1, 1, "tok"); // a version 1 HELLO: its vector is unchanged since version 1
        actual.put("HELLO frame", hex(w.seal()));
        StringBuilder all = new StringBuilder();
        actual.forEach((k, v) -> all.append(k).append(": ").append(v).append('\n'));
        for (Map.Entry<String, String> e : actual.entrySet()) {
            assertThat(doc.get(e.getKey())).as("golden vector of %s in %s; all vectors:%n%s", e.getKey(), DOC, all).isEqualTo(e.getValue());
        }
    }

    @Test
    void theRelayOpeningDecodesBack() {
        PayloadReader r = reader(goldens().get("RELAY"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.RELAY);
        assertThat(r.u32()).isEqualTo(1);
        assertThat(r.u16()).isEqualTo(2);
        assertThat(r.str()).isEqualTo("tok");
        assertThat(r.str()).isEqualTo("da246fa0");
        r.end();
        assertThat(ObserveProtocol.messageName(ObserveProtocol.RELAY)).isEqualTo("RELAY");
    }

    @Test
    void theGoldenMessagesDecodeBack() throws IOException {
        Map<String, byte[]> g = goldens();
        PayloadReader r = reader(g.get("SUBSCRIBE"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.SUBSCRIBE);
        assertThat(r.u32()).isEqualTo(4);
        assertThat(r.str()).isEqualTo("app/*");
        assertThat(r.u8()).isEqualTo(1);
        assertThat(r.u8()).isEqualTo(ObserveProtocol.QOS_BATCH);
        assertThat(r.u8()).isEqualTo(ObserveProtocol.QOS_FLAG_URGENT);
        assertThat(r.u32()).isEqualTo(10);
        assertThat(r.i64()).isEqualTo(50_000_000L);
        r.end();
        r = reader(g.get("EVENTS"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.EVENTS);
        assertThat(r.u32()).isEqualTo(1);
        assertThat(r.u32()).isEqualTo(2);
        assertThat(ObserveCodec.readEvent(r)).isEqualTo(new ObservedEvent(ObservedEvent.Kind.VALUE_CHANGED, 2, "app/x", 9L, 1.5, 0, null));
        assertThat(ObserveCodec.readEvent(r)).isEqualTo(new ObservedEvent(ObservedEvent.Kind.CHILD_ADDED, 1, "app", 10L, null, 3, "app/c"));
        r.end();
        r = reader(g.get("LISTING"));
        r.type();
        r.u32();
        r.u32();
        assertThat(ObserveCodec.readObject(r)).isEqualTo(new ObjectInfo(1, "app", "App"));
        r.u32();
        assertThat(ObserveCodec.readAttribute(r)).isEqualTo(new AttributeInfo(2, "app/x", "LONG", true, "ms", "x"));
        r.end();
        r = reader(g.get("VALUES"));
        r.type();
        r.u32();
        r.u32();
        assertThat(ObserveCodec.readReading(r)).isEqualTo(new AttributeReading(2, "app/x", "ms", 7L, 5L));
        r = reader(g.get("SUBSCRIPTION_LIST"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.SUBSCRIPTION_LIST);
        assertThat(r.u32()).isEqualTo(10);
        assertThat(r.u32()).isEqualTo(1);
        assertThat(ObserveCodec.readSubscription(r)).isEqualTo(LISTED);
        r.end();
        r = reader(g.get("EVENTS_NOTIFICATION"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.EVENTS);
        assertThat(r.u32()).isEqualTo(2);
        assertThat(r.u32()).isEqualTo(1);
        assertThat(ObserveCodec.readEvent(r)).isEqualTo(new ObservedEvent(ObservedEvent.Kind.NOTIFICATION, 1, "app", 11L, null, 0, null,
                NOTIFICATION));
        r.end();
        r = reader(g.get("PROBE_LIST"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.PROBE_LIST);
        assertThat(r.u32()).isEqualTo(12);
        assertThat(r.str()).isEqualTo("com.shop.*");
        assertThat(new int[] {r.u32(), r.u32()}).containsExactly(0, 2);
        r.end();
        r = reader(g.get("PROBE_LISTING"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.PROBE_LISTING);
        assertThat(r.u32()).isEqualTo(12);
        ProbeListing listing = ObserveCodec.readProbeListing(r);
        assertThat(listing).isEqualTo(PROBES);
        assertThat(listing.truncated()).as("2 of 3 from offset 0").isTrue();
        assertThat(listing.nextOffset()).isEqualTo(2);
        r = reader(g.get("END_SUBSCRIPTION"));
        assertThat(r.type()).isEqualTo(ObserveProtocol.END_SUBSCRIPTION);
        assertThat(new int[] {r.u32(), r.u32(), r.u32()}).containsExactly(11, 2, 1);
        r.end();
    }

    @Test
    void aNotificationWithoutUserDataAndAnUnknownKindDecode() {
        byte[] e = ObserveCodec.encodeNotification(1, "app", 11L, new ObservedNotification("t", "", 0, null));
        assertThat(ObserveCodec.readEvent(reader(e)).notification()).isEqualTo(new ObservedNotification("t", "", 0, null));
        byte[] unknown = e.clone();
        unknown[0] = 5;
        assertThatThrownBy(() -> ObserveCodec.readEvent(reader(unknown))).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("unknown event kind 5");
        assertThatThrownBy(() -> ObserveCodec.encodeEvent(ObserveProtocol.KIND_NOTIFICATION, 1, "app", 1L, null, 0, null))
                .hasMessageContaining("encodeNotification");
    }

    @Test
    void aWholeStreamReadsBackThroughTheEnvelopeChecks() throws IOException {
        LiveFrameWriter w = writer();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(LiveFrameWriter.streamHeader());
        assertThat(hex(LiveFrameWriter.streamHeader())).isEqualTo("89 53 4f 4e 44 45 0d 0a 02 00 01 00");
        ObserveCodec.ok(w, 1, 0);
        w.writeTo(out);
        ObserveCodec.overflow(w, 1, 2);
        w.writeTo(out);
        LiveFrameInput in = new LiveFrameInput(new ByteArrayInputStream(out.toByteArray()), "test");
        assertThat(in.readStreamHeader()).isTrue();
        assertThat(in.next().type()).isEqualTo(ObserveProtocol.OK);
        assertThat(in.next().type()).isEqualTo(ObserveProtocol.OVERFLOW);
        assertThat(in.next()).isNull();

        byte[] damaged = out.toByteArray();
        damaged[damaged.length - 1] ^= 1;
        LiveFrameInput bad = new LiveFrameInput(new ByteArrayInputStream(damaged), "test");
        bad.readStreamHeader();
        bad.next();
        assertThatThrownBy(bad::next).hasMessageContaining("CRC");

        byte[] old = io.sonde.format.write.StreamHeader.bytes(); // 2.0: no LIVE frames
        assertThatThrownBy(() -> new LiveFrameInput(new ByteArrayInputStream(old), "test").readStreamHeader())
                .hasMessageContaining("not an observe stream");
    }

    @Test
    void aShortPayloadNamesTheMessageAndTheOffset() {
        byte[] cut = java.util.Arrays.copyOf(goldens().get("SUBSCRIBE"), 10);
        PayloadReader r = reader(cut);
        r.type();
        r.u32();
        assertThatThrownBy(r::str).isInstanceOf(MalformedMessageException.class).hasMessageContaining("SUBSCRIBE")
                .hasMessageContaining("byte 7");
    }

    static PayloadReader reader(byte[] payload) {
        return new PayloadReader(payload, 0, payload.length);
    }
}
