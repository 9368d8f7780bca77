package io.sonde.format.observe;

import static io.sonde.format.observe.ObserveProtocol.*;

import java.util.List;

/**
 * Encoders and decoders of the observe protocol's messages (docs/observe-protocol.md), shared by the
 * endpoint in the observed process and the observer client. Each writer method puts one whole
 * message into a frame begun by it; the caller then seals and writes it.
 */
public final class ObserveCodec {
    private ObserveCodec() {}

    // ---- values
    /** A tagged value: Long, Double, Boolean, String or null. */
    public static void putValue(WireBuffer w, Object v) {
        if (v == null) {
            w.u8(VALUE_NULL);
        } else if (v instanceof Long) {
            w.u8(VALUE_LONG).i64((Long) v);
        } else if (v instanceof Double) {
            w.u8(VALUE_DOUBLE).f64((Double) v);
        } else if (v instanceof Boolean) {
            w.u8(VALUE_BOOLEAN).u8((Boolean) v ? 1 : 0);
        } else if (v instanceof String) {
            w.u8(VALUE_STRING).str((String) v);
        } else {
            throw new IllegalArgumentException("value of type " + v.getClass().getName() + ": not a live value type");
        }
    }

    public static Object readValue(PayloadReader r) {
        int tag = r.u8();
        switch (tag) {
            case VALUE_NULL: return null;
            case VALUE_LONG: return r.i64();
            case VALUE_DOUBLE: return r.f64();
            case VALUE_BOOLEAN: return r.u8() != 0;
            case VALUE_STRING: return r.str();
            default: throw new MalformedMessageException("unknown value tag " + tag);
        }
    }

    // ---- events
    /**
     * The bytes of one event: u8 kind, u32 source id, str path, i64 time, then for VALUE_CHANGED a
     * tagged value, for CHILD_ADDED / CHILD_REMOVED u32 child id and str child path, for
     * OBJECT_DELETED nothing. The endpoint makes them once per event and writes the same bytes to
     * every connection that receives the event.
     */
    public static byte[] encodeEvent(int kind, int sourceId, String path, long timeNanos, Object value, int childId,
            String childPath) {
        if (kind == KIND_NOTIFICATION) throw new IllegalArgumentException("a NOTIFICATION event: use encodeNotification");
        WireBuffer w = eventHead(kind, sourceId, path, timeNanos);
        if (kind == KIND_VALUE_CHANGED) {
            putValue(w, value);
        } else if (kind == KIND_CHILD_ADDED || kind == KIND_CHILD_REMOVED) {
            w.u32(childId).str(childPath == null ? "" : childPath);
        }
        return w.toByteArray();
    }

    /**
     * The bytes of a NOTIFICATION event (protocol version 2): the event head, then str type, str
     * message, i64 sequence and the user data as a tagged value (a string or null).
     */
    public static byte[] encodeNotification(int sourceId, String path, long timeNanos, ObservedNotification n) {
        WireBuffer w = eventHead(KIND_NOTIFICATION, sourceId, path, timeNanos);
        w.str(n.type()).str(n.message() == null ? "" : n.message()).i64(n.sequence());
        putValue(w, n.userData());
        return w.toByteArray();
    }

    private static WireBuffer eventHead(int kind, int sourceId, String path, long timeNanos) {
        WireBuffer w = new WireBuffer(32 + path.length());
        w.u8(kind).u32(sourceId).str(path).i64(timeNanos);
        return w;
    }

    public static ObservedEvent readEvent(PayloadReader r) {
        int kind = r.u8();
        if (kind > KIND_NOTIFICATION) throw new MalformedMessageException("EVENTS: unknown event kind " + kind);
        int source = r.u32();
        String path = r.str();
        long time = r.i64();
        Object value = null;
        int childId = 0;
        String childPath = null;
        if (kind == KIND_NOTIFICATION) {
            String type = r.str();
            String message = r.str();
            long sequence = r.i64();
            Object data = readValue(r);
            if (data != null && !(data instanceof String)) {
                throw new MalformedMessageException("EVENTS: notification user data is not a string or null");
            }
            return new ObservedEvent(ObservedEvent.Kind.NOTIFICATION, source, path, time, null, 0, null,
                    new ObservedNotification(type, message, sequence, (String) data));
        }
        if (kind == KIND_VALUE_CHANGED) {
            value = readValue(r);
        } else if (kind != KIND_OBJECT_DELETED) {
            childId = r.u32();
            childPath = r.str();
        }
        return new ObservedEvent(ObservedEvent.Kind.values()[kind], source, path, time, value, childId, childPath);
    }

    // ---- requests
    public static void hello(LiveFrameWriter w, int request, int version, String token) {
        w.begin(HELLO).u32(request).u16(version).str(token);
    }

    /** RELAY (version 2): the first message to a relaying endpoint, naming the target to open a session at. */
    public static void relay(LiveFrameWriter w, int request, int version, String token, String target) {
        w.begin(RELAY).u32(request).u16(version).str(token).str(target);
    }

    /** LIST, GET, SUSPEND or RESUME: a request with one pattern. */
    public static void patternRequest(LiveFrameWriter w, byte type, int request, String pattern) {
        w.begin(type).u32(request).str(pattern);
    }

    public static void subscribe(LiveFrameWriter w, int request, String pattern, int kindsMask, DeliveryQos qos) {
        w.begin(SUBSCRIBE).u32(request).str(pattern).u8(kindsMask);
        putQos(w, qos);
    }

    public static void unsubscribe(LiveFrameWriter w, int request, int subscription) {
        w.begin(UNSUBSCRIBE).u32(request).u32(subscription);
    }

    /** SUBSCRIPTIONS (version 2): {@code scope} is {@link ObserveProtocol#SCOPE_OWN} or {@link ObserveProtocol#SCOPE_ALL}. */
    public static void subscriptions(LiveFrameWriter w, int request, int scope) {
        w.begin(SUBSCRIPTIONS).u32(request).u8(scope);
    }

    /** END_SUBSCRIPTION (version 2): {@code connection} 0 names the sender's own connection. */
    public static void endSubscription(LiveFrameWriter w, int request, int connection, int subscription) {
        w.begin(END_SUBSCRIPTION).u32(request).u32(connection).u32(subscription);
    }

    /**
     * PROBE_LIST (version 3): the probes matching {@code pattern} from the {@code offset}-th match on,
     * at most {@code limit} (u32 each; the endpoint caps the page at {@link ObserveProtocol#MAX_PROBE_PAGE}).
     */
    public static void probeList(LiveFrameWriter w, int request, String pattern, int offset, int limit) {
        if (offset < 0 || limit < 0) throw new IllegalArgumentException("PROBE_LIST: offset " + offset + " and limit " + limit + " must be >= 0");
        w.begin(PROBE_LIST).u32(request).str(pattern).u32(offset).u32(limit);
    }

    // ---- responses
    public static void ok(LiveFrameWriter w, int request, long result) {
        w.begin(OK).u32(request).i64(result);
    }

    public static void error(LiveFrameWriter w, int request, int code, String message) {
        w.begin(ERROR).u32(request).u16(code).str(message);
    }

    public static void listing(LiveFrameWriter w, int request, List<ObjectInfo> objects, List<AttributeInfo> attributes) {
        w.begin(LISTING).u32(request).u32(objects.size());
        for (ObjectInfo o : objects) w.u32(o.id()).str(o.path()).str(o.type());
        w.u32(attributes.size());
        for (AttributeInfo a : attributes) {
            w.u32(a.id()).str(a.path()).u8(valueTypeTag(a.valueType())).u8(a.sensor() ? 1 : 0).str(a.unit()).str(a.description());
        }
    }

    public static void values(LiveFrameWriter w, int request, List<AttributeReading> readings) {
        w.begin(VALUES).u32(request).u32(readings.size());
        for (AttributeReading v : readings) {
            w.u32(v.id()).str(v.path()).str(v.unit()).i64(v.timeNanos());
            putValue(w, v.value());
        }
    }

    /**
     * SUBSCRIPTION_LIST (version 2): per subscription u32 connection id, u8 own (1: the asking
     * connection's), u32 subscription id, str pattern, u8 kinds mask, then the QoS as in SUBSCRIBE
     * (u8 mode, u8 flags, u32 batch size, i64 interval ns).
     */
    public static void subscriptionList(LiveFrameWriter w, int request, List<SubscriptionInfo> subscriptions) {
        w.begin(SUBSCRIPTION_LIST).u32(request).u32(subscriptions.size());
        for (SubscriptionInfo s : subscriptions) {
            w.u32(s.connectionId()).u8(s.own() ? 1 : 0).u32(s.subscriptionId()).str(s.pattern()).u8(s.kindsMask());
            putQos(w, s.qos());
        }
    }

    public static SubscriptionInfo readSubscription(PayloadReader r) {
        int connection = r.u32();
        boolean own = r.u8() != 0;
        int id = r.u32();
        String pattern = r.str();
        int mask = r.u8();
        int mode = r.u8();
        boolean urgent = (r.u8() & QOS_FLAG_URGENT) != 0;
        int batch = r.u32();
        long interval = r.i64();
        return new SubscriptionInfo(connection, own, id, pattern, mask, new DeliveryQos(mode, batch, interval, urgent));
    }

    /**
     * PROBE_LISTING (version 3): u32 total matching, u32 offset, u32 n, then per probe u32 id, str
     * name, str signature, u8 flags ({@link ObserveProtocol#PROBE_FLAG_ON}), u8 origin (the ordinal of
     * {@link ProbeInfo.Origin}), str detail.
     */
    public static void probeListing(LiveFrameWriter w, int request, ProbeListing listing) {
        w.begin(PROBE_LISTING).u32(request).u32(listing.total()).u32(listing.offset()).u32(listing.probes().size());
        for (ProbeInfo p : listing.probes()) {
            w.u32(p.id()).str(p.name()).str(p.signature()).u8(p.on() ? PROBE_FLAG_ON : 0).u8(p.origin().ordinal()).str(p.detail());
        }
    }

    /** The rest of a PROBE_LISTING after its type and request id, to the end of the payload. */
    public static ProbeListing readProbeListing(PayloadReader r) {
        int total = r.u32();
        int offset = r.u32();
        int n = r.u32();
        if (total < 0 || offset < 0 || n < 0 || (n > 0 && (long) offset + n > total)) { // an empty page may lie beyond the matches
            throw new MalformedMessageException("PROBE_LISTING: offset " + Integer.toUnsignedString(offset) + " and "
                    + Integer.toUnsignedString(n) + " probes do not fit in a total of " + Integer.toUnsignedString(total));
        }
        List<ProbeInfo> probes = new java.util.ArrayList<>(Math.min(n, MAX_PROBE_PAGE));
        for (int i = 0; i < n; i++) {
            int id = r.u32();
            String name = r.str();
            String signature = r.str();
            int flags = r.u8();
            if ((flags & ~PROBE_FLAG_ON) != 0) throw new MalformedMessageException("PROBE_LISTING: unknown probe flags 0x" + Integer.toHexString(flags));
            ProbeInfo.Origin origin = ProbeInfo.Origin.ofCode(r.u8());
            probes.add(new ProbeInfo(id, name, signature, (flags & PROBE_FLAG_ON) != 0, origin, r.str()));
        }
        r.end();
        return new ProbeListing(total, offset, probes);
    }

    /** SUBSCRIPTION_ENDED (version 2, pushed): connection {@code by} ended this connection's subscription. */
    public static void subscriptionEnded(LiveFrameWriter w, int subscription, int by, String reason) {
        w.begin(SUBSCRIPTION_ENDED).u32(subscription).u32(by).str(reason);
    }

    private static void putQos(WireBuffer w, DeliveryQos qos) {
        w.u8(qos.mode()).u8(qos.isUrgent() ? QOS_FLAG_URGENT : 0).u32(qos.batchSize()).i64(qos.intervalNanos());
    }

    /** The head of an EVENTS message; the caller appends {@code count} encoded events. */
    public static void eventsHead(LiveFrameWriter w, int subscription, int count) {
        w.begin(EVENTS).u32(subscription).u32(count);
    }

    public static void overflow(LiveFrameWriter w, long lost, long lostTotal) {
        w.begin(OVERFLOW).i64(lost).i64(lostTotal);
    }

    /** The u8 of a value type name in LISTING: 1 LONG, 2 DOUBLE, 3 BOOLEAN, 4 STRING (the value tags). */
    public static int valueTypeTag(String type) {
        switch (type) {
            case "LONG": return VALUE_LONG;
            case "DOUBLE": return VALUE_DOUBLE;
            case "BOOLEAN": return VALUE_BOOLEAN;
            case "STRING": return VALUE_STRING;
            default: throw new IllegalArgumentException("value type " + type + ": not LONG, DOUBLE, BOOLEAN or STRING");
        }
    }

    public static String valueTypeName(int tag) {
        switch (tag) {
            case VALUE_LONG: return "LONG";
            case VALUE_DOUBLE: return "DOUBLE";
            case VALUE_BOOLEAN: return "BOOLEAN";
            case VALUE_STRING: return "STRING";
            default: throw new MalformedMessageException("LISTING: unknown value type " + tag);
        }
    }

    public static ObjectInfo readObject(PayloadReader r) {
        return new ObjectInfo(r.u32(), r.str(), r.str());
    }

    public static AttributeInfo readAttribute(PayloadReader r) {
        int id = r.u32();
        String path = r.str();
        String type = valueTypeName(r.u8());
        boolean sensor = r.u8() != 0;
        return new AttributeInfo(id, path, type, sensor, r.str(), r.str());
    }

    public static AttributeReading readReading(PayloadReader r) {
        int id = r.u32();
        String path = r.str();
        String unit = r.str();
        long time = r.i64();
        return new AttributeReading(id, path, unit, readValue(r), time);
    }
}
