package io.sonde.format.observe;

/**
 * Constants of the observe protocol (docs/observe-protocol.md): request, response and pushed
 * messages between an observer and the observe endpoint of a monitored process, each carried as
 * the payload of one LIVE frame (frame type 4) of a format 2.1 stream. The normative description is
 * the document; this class and it must agree.
 */
public final class ObserveProtocol {
    private ObserveProtocol() {}

    /** The frame type of live messages: a new frame type, so the stream is minor version 1 (format 2.1). */
    public static final byte FRAME_LIVE = 4;
    /** The stream version of an observe connection in both directions: 2.1. */
    public static final int STREAM_MAJOR_VERSION = 2;
    public static final int STREAM_MINOR_VERSION = 1;
    /**
     * The protocol version this code speaks and a client names in HELLO. Version 2 added the
     * NOTIFICATION event kind and the management messages (probe switch, subscription listing and
     * ending); version 3 the probe listing (PROBE_LIST, PROBE_LISTING). An endpoint also accepts
     * older HELLOs and then refuses what that version lacks.
     */
    public static final int PROTOCOL_VERSION = 3;
    /** The oldest version an endpoint still accepts. */
    public static final int MIN_PROTOCOL_VERSION = 1;
    /** The default TCP port of an observe endpoint. */
    public static final int DEFAULT_PORT = 7712;
    /** Largest frame either side accepts on an observe connection. */
    public static final int MAX_FRAME_BYTES = 16 << 20;

    // ---- requests (observer -> endpoint): u8 type, u32 request id, then the fields
    /** u16 protocol version, str token. Must be the first message. */
    public static final byte HELLO = 0x01;
    /** str pattern: the objects and attributes whose paths match. */
    public static final byte LIST = 0x02;
    /** str pattern: the current values of the matching attributes (pull). */
    public static final byte GET = 0x03;
    /** str pattern, u8 kinds mask, u8 QoS mode, u8 QoS flags, u32 batch size, i64 interval ns. */
    public static final byte SUBSCRIBE = 0x04;
    /** u32 subscription id. */
    public static final byte UNSUBSCRIBE = 0x05;
    /** str pattern. */
    public static final byte SUSPEND = 0x06;
    /** str pattern. */
    public static final byte RESUME = 0x07;
    /** Since version 2. str pattern: switch on the matching method probes (OK: how many changed). */
    public static final byte PROBES_ON = 0x08;
    /** Since version 2. str pattern: switch off the matching method probes (OK: how many changed). */
    public static final byte PROBES_OFF = 0x09;
    /** Since version 2. u8 scope ({@link #SCOPE_OWN} or {@link #SCOPE_ALL}): answered by SUBSCRIPTION_LIST. */
    public static final byte SUBSCRIPTIONS = 0x0A;
    /** Since version 2. u32 connection id (0: this one), u32 subscription id: ends that subscription. */
    public static final byte END_SUBSCRIPTION = 0x0B;

    /**
     * Since version 2, instead of HELLO as the first message, to an endpoint that relays (the
     * collector's): u16 protocol version, str token (the relaying endpoint's), str target (an agent
     * id, or a unique prefix of one). The endpoint opens a session at the target's observe endpoint
     * with that version and relays both directions; the answer is the target's OK to HELLO (its
     * connection id) or an ERROR of the relaying endpoint. Endpoints that do not relay answer
     * ERR_BAD_TOKEN (the first message must be HELLO).
     */
    public static final byte RELAY = 0x0C;
    /**
     * Since version 3. str pattern, u32 offset, u32 limit: the method probes whose names match, from
     * the {@code offset}-th match on, at most {@code limit} (and at most {@link #MAX_PROBE_PAGE});
     * answered by PROBE_LISTING.
     */
    public static final byte PROBE_LIST = 0x0D;
    /** The most probes one PROBE_LISTING carries, whatever the limit asked: an agent may have 100,000 probes. */
    public static final int MAX_PROBE_PAGE = 1000;
    /**
     * An endpoint ends a PROBE_LISTING page early (after at least one probe) rather than let it pass
     * this many bytes: far below {@link #MAX_FRAME_BYTES} even with pathologically long names.
     */
    public static final int MAX_PROBE_PAGE_BYTES = 4 << 20;

    // ---- responses (endpoint -> observer): u8 type, u32 request id of the request answered
    /** i64 result: 0 for HELLO / UNSUBSCRIBE, the subscription id, or the count of sensors suspended / resumed. */
    public static final byte OK = 0x41;
    /** u16 error code, str message. */
    public static final byte ERROR = 0x42;
    /** u32 n, n objects; u32 m, m attributes. */
    public static final byte LISTING = 0x43;
    /** u32 n, n attribute values. */
    public static final byte VALUES = 0x44;
    /** Since version 2. u32 n, n subscriptions (see {@link ObserveCodec#subscriptionList}). */
    public static final byte SUBSCRIPTION_LIST = 0x45;
    /** Since version 3. u32 total matching, u32 offset, u32 n, n probes (see {@link ObserveCodec#probeListing}). */
    public static final byte PROBE_LISTING = 0x46;

    // ---- pushed (endpoint -> observer), no request id
    /** u32 subscription id, u32 n, n events (each encoded once, the same bytes to every observer). */
    public static final byte EVENTS = 0x61;
    /** i64 lost since the last report, i64 lost since the session opened. */
    public static final byte OVERFLOW = 0x62;
    /** Since version 2. u32 subscription id, u32 connection id that ended it, str reason: another connection ended it. */
    public static final byte SUBSCRIPTION_ENDED = 0x63;

    // ---- SUBSCRIPTIONS scopes (u8)
    /** The subscriptions of the asking connection. */
    public static final int SCOPE_OWN = 0;
    /** The subscriptions of every connection of the endpoint. */
    public static final int SCOPE_ALL = 1;

    // ---- event kinds (u8), in the order of io.sonde.api.live.EventKind; a kinds mask has bit (1 << kind)
    public static final int KIND_VALUE_CHANGED = 0;
    public static final int KIND_CHILD_ADDED = 1;
    public static final int KIND_CHILD_REMOVED = 2;
    public static final int KIND_OBJECT_DELETED = 3;
    /** Since version 2: a notification of an object (type, message, sequence, user data). */
    public static final int KIND_NOTIFICATION = 4;
    /** Every kind of the current version. */
    public static final int ALL_KINDS_MASK = 0x1F;
    /** Every kind of version 1 (no NOTIFICATION). */
    public static final int V1_KINDS_MASK = 0x0F;

    // ---- value tags (u8) then the value
    public static final int VALUE_NULL = 0; // nothing follows
    public static final int VALUE_LONG = 1; // i64
    public static final int VALUE_DOUBLE = 2; // f64
    public static final int VALUE_BOOLEAN = 3; // u8 0 or 1
    public static final int VALUE_STRING = 4; // str

    // ---- QoS modes (u8) and flags
    public static final int QOS_IMMEDIATE = 0;
    public static final int QOS_BATCH = 1;
    public static final int QOS_PERIODIC = 2;
    public static final int QOS_PERIODIC_LATEST = 3;
    public static final int QOS_FLAG_URGENT = 1;

    // ---- PROBE_LISTING: probe flags (u8)
    /** The probe is on (records its executions). */
    public static final int PROBE_FLAG_ON = 1;

    // ---- error codes (u16)
    /** The first message was not a HELLO with the right token; the endpoint closes the connection. */
    public static final int ERR_BAD_TOKEN = 1;
    /** The HELLO named a protocol version the endpoint does not speak; the connection is closed. */
    public static final int ERR_VERSION = 2;
    /** The message could not be decoded (unknown type, short or over-long payload). */
    public static final int ERR_MALFORMED = 3;
    /** A literal path (no wildcard) names no object or attribute. */
    public static final int ERR_UNKNOWN_PATH = 4;
    /** UNSUBSCRIBE of an id this connection does not hold. */
    public static final int ERR_UNKNOWN_SUBSCRIPTION = 5;
    /** A field is out of range (bad pattern syntax, empty kinds mask, batch size 0, interval not positive). */
    public static final int ERR_BAD_ARGUMENT = 6;
    /** The endpoint failed while serving the request. */
    public static final int ERR_INTERNAL = 7;
    /** Since version 2: the process cannot do what was asked (no method-probe switch: no agent). */
    public static final int ERR_UNAVAILABLE = 8;
    /** Since version 2: a request of a later version than the connection's HELLO named. */
    public static final int ERR_NOT_IN_VERSION = 9;

    /** The name of a message type, for messages and errors. */
    public static String messageName(int type) {
        switch (type) {
            case HELLO: return "HELLO";
            case LIST: return "LIST";
            case GET: return "GET";
            case SUBSCRIBE: return "SUBSCRIBE";
            case UNSUBSCRIBE: return "UNSUBSCRIBE";
            case SUSPEND: return "SUSPEND";
            case RESUME: return "RESUME";
            case PROBES_ON: return "PROBES_ON";
            case PROBES_OFF: return "PROBES_OFF";
            case SUBSCRIPTIONS: return "SUBSCRIPTIONS";
            case END_SUBSCRIPTION: return "END_SUBSCRIPTION";
            case RELAY: return "RELAY";
            case PROBE_LIST: return "PROBE_LIST";
            case PROBE_LISTING: return "PROBE_LISTING";
            case SUBSCRIPTION_LIST: return "SUBSCRIPTION_LIST";
            case SUBSCRIPTION_ENDED: return "SUBSCRIPTION_ENDED";
            case OK: return "OK";
            case ERROR: return "ERROR";
            case LISTING: return "LISTING";
            case VALUES: return "VALUES";
            case EVENTS: return "EVENTS";
            case OVERFLOW: return "OVERFLOW";
            default: return "unknown message type 0x" + Integer.toHexString(type & 0xFF);
        }
    }

    /** Whether a pattern has no wildcard, i.e. names one path that must exist. */
    public static boolean isLiteral(String pattern) {
        return pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0;
    }
}
