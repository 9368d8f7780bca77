package io.sonde.core.live.observe;

import static io.sonde.format.observe.ObserveProtocol.*;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LiveTree;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Notification;
import io.sonde.api.live.Observer;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.Qos;
import io.sonde.api.live.Subscription;
import io.sonde.format.observe.AttributeInfo;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.LiveFrameInput;
import io.sonde.format.observe.LiveFrameWriter;
import io.sonde.format.observe.MalformedMessageException;
import io.sonde.format.observe.ObjectInfo;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObservedNotification;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.format.observe.SubscriptionInfo;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One observer connection: the reader thread answers requests; the session's dispatcher thread
 * writes deliveries. A connection that stops reading blocks only its own dispatcher in the socket
 * write, so only its own queue fills (overflow counted and reported to it).
 *
 * <p>Answers are flushed at once. Deliveries (EVENTS frames, one per delivery as the QoS made it)
 * go into the connection's buffer and leave at the session's {@link #flush()}, at the end of the
 * dispatcher's pass: with immediate or batch-1 delivery and a burst of events, one socket write
 * carries the burst's frames instead of one write per frame.
 */
final class ObserveConnection implements Observer {
    /** Events encoded (once each, however many connections receive them); tests read it. */
    static final LongAdder ENCODED_EVENTS = new LongAdder();
    private static final int HELLO_TIMEOUT_MS = 10_000;

    private final ObserveServer server;
    /** Unique within the endpoint; other connections name this one by it (END_SUBSCRIPTION). */
    private final int id;
    private final Socket socket;
    private final OutputStream out;
    private final LiveFrameWriter writer;
    private final Map<Integer, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Thread reader;
    private volatile ObserverSession session;
    /** The protocol version the HELLO named (set before the session opens). */
    private volatile int version;
    private volatile boolean closed;

    ObserveConnection(ObserveServer server, Socket socket) throws IOException {
        this.server = server;
        this.id = server.nextConnectionId();
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 16384);
        this.writer = new LiveFrameWriter(server.endpointId(), ProcessHandle.current().pid(), "");
        this.reader = new Thread(this::serve, "sonde-observe-" + socket.getRemoteSocketAddress());
        reader.setDaemon(true);
    }

    void start() {
        reader.start();
    }

    int id() {
        return id;
    }

    int version() {
        return version;
    }

    boolean isAuthenticated() {
        return session != null && !closed;
    }

    private void serve() {
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        try {
            socket.setSoTimeout(HELLO_TIMEOUT_MS); // also bounds a TLS handshake, which the first write starts
            synchronized (writer) {
                out.write(LiveFrameWriter.streamHeader());
                out.flush();
            }
            LiveFrameInput in = new LiveFrameInput(socket.getInputStream(), peer);
            if (!in.readStreamHeader()) return;
            PayloadReader hello = in.next();
            if (!hello(hello, in)) return;
            socket.setSoTimeout(0);
            for (PayloadReader r; (r = in.next()) != null; ) handle(r);
        } catch (IOException | RuntimeException e) {
            // a broken envelope, a timeout before HELLO or a lost peer: say so if we still can, end this connection only
            if (!closed) reply(w -> ObserveCodec.error(w, 0, ERR_MALFORMED, peer + ": " + e.getMessage() + "; closing"));
        } finally {
            close();
        }
    }

    private boolean hello(PayloadReader r, LiveFrameInput in) throws IOException {
        if (r == null) return false;
        int request = 0;
        try {
            int type = r.type();
            request = r.u32();
            if (type == RELAY && server.relay() != null) {
                relay(r, request, in);
                return false;
            }
            if (type != HELLO) {
                int req = request;
                reply(w -> ObserveCodec.error(w, req, ERR_BAD_TOKEN, "the first message must be HELLO with the token, not "
                        + messageName(type)));
                return false;
            }
            int version = r.u16();
            String token = r.str();
            r.end();
            int req = request;
            if (version < MIN_PROTOCOL_VERSION || version > PROTOCOL_VERSION) {
                reply(w -> ObserveCodec.error(w, req, ERR_VERSION, "protocol version " + version + " is not spoken here (this endpoint speaks "
                        + MIN_PROTOCOL_VERSION + " to " + PROTOCOL_VERSION + ")"));
                return false;
            }
            if (!MessageDigest.isEqual(token.getBytes(java.nio.charset.StandardCharsets.UTF_8), server.token())) {
                reply(w -> ObserveCodec.error(w, req, ERR_BAD_TOKEN, "wrong token"));
                return false;
            }
            this.version = version;
            session = server.tree().openSession(this, ObserveServer.SESSION_CAPACITY);
            reply(w -> ObserveCodec.ok(w, req, version >= 2 ? id : 0)); // version 2 tells the connection its id
            return true;
        } catch (MalformedMessageException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_MALFORMED, e.getMessage()));
            return false;
        }
    }

    /**
     * A RELAY opening: checks version and token as HELLO does, then hands the connection to the
     * endpoint's relay until the relayed session ends.
     */
    private void relay(PayloadReader r, int request, LiveFrameInput in) throws IOException {
        int version = r.u16();
        String token = r.str();
        String target = r.str();
        r.end();
        if (version < 2 || version > PROTOCOL_VERSION) {
            reply(w -> ObserveCodec.error(w, request, ERR_VERSION, "protocol version " + version + " cannot be relayed (RELAY is version 2;"
                    + " this endpoint speaks 2 to " + PROTOCOL_VERSION + ")"));
            return;
        }
        if (!MessageDigest.isEqual(token.getBytes(java.nio.charset.StandardCharsets.UTF_8), server.token())) {
            reply(w -> ObserveCodec.error(w, request, ERR_BAD_TOKEN, "wrong token"));
            return;
        }
        socket.setSoTimeout(0);
        String peer = String.valueOf(socket.getRemoteSocketAddress());
        server.relay().relay(new ObserveRelay.Session() {
            @Override
            public int request() {
                return request;
            }

            @Override
            public int version() {
                return version;
            }

            @Override
            public String target() {
                return target;
            }

            @Override
            public String peer() {
                return peer;
            }

            @Override
            public io.sonde.format.read.FrameInput observerFrames() {
                return in.frames();
            }

            @Override
            public void error(int req, int code, String message) {
                reply(w -> ObserveCodec.error(w, req, code, message));
            }

            @Override
            public void forward(byte[] frame, int length) throws IOException {
                synchronized (writer) {
                    out.write(frame, 0, length);
                    out.flush();
                }
            }

            @Override
            public void close() {
                closeSocket();
            }
        });
    }

    /** Answers one request; an error answer changes nothing. */
    private void handle(PayloadReader r) {
        int request = 0;
        try {
            int type = r.type();
            request = r.u32();
            int req = request;
            LiveTree tree = server.tree();
            if (type >= PROBES_ON && type <= END_SUBSCRIPTION && version < 2) {
                reply(w -> ObserveCodec.error(w, req, ERR_NOT_IN_VERSION, messageName(type)
                        + " is a protocol version 2 request; this connection's HELLO named version " + version));
                return;
            }
            if (type == PROBE_LIST && version < 3) {
                reply(w -> ObserveCodec.error(w, req, ERR_NOT_IN_VERSION, "PROBE_LIST is a protocol version 3 request; this connection's"
                        + " HELLO named version " + version));
                return;
            }
            switch (type) {
                case LIST: {
                    String pattern = pattern(r);
                    List<ObjectInfo> objects = new ArrayList<>();
                    for (MonitoredObject o : tree.objects(pattern)) objects.add(new ObjectInfo(o.id(), o.path(), o.type()));
                    List<AttributeInfo> attributes = new ArrayList<>();
                    for (Attribute a : tree.attributes(pattern)) {
                        attributes.add(new AttributeInfo(a.id(), a.path(), a.type().name(), a.isSensor(), a.unit(), a.description()));
                    }
                    reply(w -> ObserveCodec.listing(w, req, objects, attributes));
                    break;
                }
                case GET: {
                    String pattern = pattern(r);
                    List<AttributeReading> values = new ArrayList<>();
                    for (AttributeValue v : tree.pull(pattern)) values.add(new AttributeReading(v.id(), v.path(), v.unit(), v.value(), v.timeNanos()));
                    reply(w -> ObserveCodec.values(w, req, values));
                    break;
                }
                case SUBSCRIBE: {
                    String pattern = r.str();
                    int mask = r.u8();
                    int mode = r.u8();
                    int flags = r.u8();
                    int batch = r.u32();
                    long interval = r.i64();
                    r.end();
                    checkPath(pattern);
                    int known = version >= 2 ? ALL_KINDS_MASK : V1_KINDS_MASK;
                    if (mask == 0 || (mask & ~known) != 0) {
                        throw new IllegalArgumentException("kinds mask 0x" + Integer.toHexString(mask) + ": must name kinds 0.."
                                + (Integer.bitCount(known) - 1) + " (protocol version " + version + ") and at least one");
                    }
                    Subscription s = session.subscribe(pattern, EventKind.of(mask), qos(mode, flags, batch, interval));
                    subscriptions.put(s.id(), s);
                    reply(w -> ObserveCodec.ok(w, req, s.id()));
                    break;
                }
                case UNSUBSCRIBE: {
                    int subscription = r.u32();
                    r.end();
                    endSubscription(req, 0, subscription);
                    break;
                }
                case SUSPEND:
                case RESUME: {
                    String pattern = pattern(r);
                    int n = type == SUSPEND ? tree.suspend(pattern) : tree.resume(pattern);
                    reply(w -> ObserveCodec.ok(w, req, n));
                    break;
                }
                case PROBES_ON:
                case PROBES_OFF: {
                    String pattern = r.str();
                    r.end();
                    if (pattern.isEmpty()) throw new IllegalArgumentException(messageName(type) + ": the probe pattern is empty");
                    int n = type == PROBES_ON ? probeSwitch(type).enable(pattern) : probeSwitch(type).disable(pattern);
                    reply(w -> ObserveCodec.ok(w, req, n));
                    break;
                }
                case PROBE_LIST: {
                    String pattern = r.str();
                    int offset = r.u32();
                    int limit = r.u32();
                    r.end();
                    if (pattern.isEmpty()) throw new IllegalArgumentException("PROBE_LIST: the probe pattern is empty");
                    ProbeListing page = probePage(probeSwitch(type), pattern, offset, limit);
                    reply(w -> ObserveCodec.probeListing(w, req, page));
                    break;
                }
                case SUBSCRIPTIONS: {
                    int scope = r.u8();
                    r.end();
                    if (scope != SCOPE_OWN && scope != SCOPE_ALL) {
                        throw new IllegalArgumentException("SUBSCRIPTIONS: scope " + scope + " is not 0 (own) or 1 (all)");
                    }
                    List<SubscriptionInfo> list = new ArrayList<>();
                    for (ObserveConnection c : scope == SCOPE_OWN ? List.of(this) : server.authenticated()) c.describe(c == this, list);
                    reply(w -> ObserveCodec.subscriptionList(w, req, list));
                    break;
                }
                case END_SUBSCRIPTION: {
                    int connection = r.u32();
                    int subscription = r.u32();
                    r.end();
                    endSubscription(req, connection, subscription);
                    break;
                }
                default:
                    reply(w -> ObserveCodec.error(w, req, ERR_MALFORMED, messageName(type) + " is not a request"));
            }
        } catch (MalformedMessageException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_MALFORMED, e.getMessage()));
        } catch (UnknownPathException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_UNKNOWN_PATH, e.getMessage()));
        } catch (UnavailableException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_UNAVAILABLE, e.getMessage()));
        } catch (IllegalArgumentException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_BAD_ARGUMENT, e.getMessage()));
        } catch (RuntimeException e) {
            int req = request;
            reply(w -> ObserveCodec.error(w, req, ERR_INTERNAL, e.toString()));
        }
    }

    /**
     * Ends subscription {@code subscription} of connection {@code connection} (0 or this
     * connection's id: its own). Another connection's subscription is ended only if that
     * connection speaks version 2, which tells it with SUBSCRIPTION_ENDED: a subscription never
     * stops silently. Every connection holds the endpoint's one token, so each has the same rights.
     */
    private void endSubscription(int req, int connection, int subscription) {
        if (connection == 0 || connection == id) {
            Subscription s = subscriptions.remove(subscription);
            if (s == null) {
                reply(w -> ObserveCodec.error(w, req, ERR_UNKNOWN_SUBSCRIPTION, "no subscription " + subscription + " on this connection"));
                return;
            }
            s.cancel();
            reply(w -> ObserveCodec.ok(w, req, 0));
            return;
        }
        ObserveConnection owner = server.authenticated(connection);
        if (owner == null) {
            reply(w -> ObserveCodec.error(w, req, ERR_UNKNOWN_SUBSCRIPTION, "END_SUBSCRIPTION: no connection " + connection));
        } else if (owner.version() < 2) {
            reply(w -> ObserveCodec.error(w, req, ERR_BAD_ARGUMENT, "END_SUBSCRIPTION: connection " + connection
                    + " speaks protocol version 1, which cannot be told that its subscription ended; it keeps it"));
        } else if (!owner.endedBy(subscription, id)) {
            reply(w -> ObserveCodec.error(w, req, ERR_UNKNOWN_SUBSCRIPTION, "END_SUBSCRIPTION: no subscription " + subscription
                    + " on connection " + connection));
        } else {
            reply(w -> ObserveCodec.ok(w, req, 0));
        }
    }

    /** Another connection ({@code by}) ends one of this connection's subscriptions; this one is told. */
    private boolean endedBy(int subscription, int by) {
        Subscription s = subscriptions.remove(subscription);
        if (s == null) return false;
        s.cancel();
        reply(w -> ObserveCodec.subscriptionEnded(w, subscription, by, "ended by connection " + by));
        return true;
    }

    /** The process's probe switch, or UNAVAILABLE naming the request. */
    private ProbeSwitch probeSwitch(int type) {
        return server.tree().probeSwitch().orElseThrow(() -> new UnavailableException(messageName(type)
                + ": this process has no method probes (no Sonde agent registered its switch)"));
    }

    /**
     * One PROBE_LISTING page: offset and limit are u32 on the wire (an offset above 2^31 - 1 is
     * BAD_ARGUMENT, a limit above it as good as "all"), the page at most {@link io.sonde.format.observe.ObserveProtocol#MAX_PROBE_PAGE}
     * probes and, after its first probe, at most MAX_PROBE_PAGE_BYTES (what stays out is the next
     * page's: {@code truncated} tells the client).
     */
    private static ProbeListing probePage(ProbeSwitch probes, String pattern, int offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("PROBE_LIST: offset " + Integer.toUnsignedString(offset) + " is above 2^31 - 1");
        int max = limit < 0 ? MAX_PROBE_PAGE : Math.min(limit, MAX_PROBE_PAGE);
        ProbeSwitch.Page page;
        try {
            page = probes.list(pattern, offset, max);
        } catch (UnsupportedOperationException e) {
            throw new UnavailableException("PROBE_LIST: " + e.getMessage());
        }
        List<ProbeInfo> out = new ArrayList<>(Math.min(page.probes().size(), max));
        long bytes = 17; // type, request, total, offset, n
        for (ProbeSwitch.Probe p : page.probes()) {
            if (out.size() == max) break;
            // a bound on the UTF-8 size: 3 bytes per char at most
            bytes += 4 + 2 + 2 + 2 + 3L * (p.name().length() + p.signature().length() + p.detail().length()) + 2;
            if (!out.isEmpty() && bytes > MAX_PROBE_PAGE_BYTES) break;
            out.add(new ProbeInfo(p.id(), p.name(), p.signature(), p.on(), ProbeInfo.Origin.valueOf(p.origin().name()), p.detail()));
        }
        return new ProbeListing(page.total(), offset, out);
    }

    /** Adds this connection's subscriptions to {@code out}. */
    private void describe(boolean own, List<SubscriptionInfo> out) {
        List<Subscription> mine = new ArrayList<>(subscriptions.values());
        mine.sort(java.util.Comparator.comparingInt(Subscription::id));
        for (Subscription s : mine) {
            out.add(new SubscriptionInfo(id, own, s.id(), s.pattern(), EventKind.mask(s.kinds()), wireQos(s.qos())));
        }
    }

    private String pattern(PayloadReader r) {
        String pattern = r.str();
        r.end();
        checkPath(pattern);
        return pattern;
    }

    /** A literal path must name an existing object or attribute. */
    private void checkPath(String pattern) {
        if (isLiteral(pattern) && server.tree().find(pattern).isEmpty() && server.tree().findAttribute(pattern).isEmpty()) {
            throw new UnknownPathException("no object or attribute at path '" + pattern + "'");
        }
    }

    /** {@code q} as SUBSCRIBE would have carried it (the inverse of {@link #qos}). */
    private static DeliveryQos wireQos(Qos q) {
        Duration interval = Duration.ofNanos(q.intervalNanos());
        DeliveryQos d;
        switch (q.mode()) {
            case BATCH: d = DeliveryQos.batch(q.batchSize(), interval); break;
            case PERIODIC: d = DeliveryQos.periodic(interval); break;
            case PERIODIC_LATEST: d = DeliveryQos.periodicLatest(interval); break;
            default: d = DeliveryQos.immediate();
        }
        return q.isUrgent() ? d.asUrgent() : d;
    }

    private static Qos qos(int mode, int flags, int batch, long interval) {
        Qos q;
        switch (mode) {
            case QOS_IMMEDIATE: q = Qos.immediate(); break;
            case QOS_BATCH: q = Qos.batch(batch, Duration.ofNanos(interval)); break;
            case QOS_PERIODIC: q = Qos.periodic(Duration.ofNanos(interval)); break;
            case QOS_PERIODIC_LATEST: q = Qos.periodicLatest(Duration.ofNanos(interval)); break;
            default: throw new IllegalArgumentException("QoS mode " + mode + ": not 0..3");
        }
        return (flags & QOS_FLAG_URGENT) != 0 ? q.urgent() : q;
    }

    private static final class UnknownPathException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownPathException(String message) {
            super(message);
        }
    }

    /** The process lacks what the request needs (ERR_UNAVAILABLE). */
    private static final class UnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnavailableException(String message) {
            super(message);
        }
    }

    // ---- deliveries, on the session's dispatcher thread

    @Override
    public void onEvents(Subscription subscription, List<LiveEvent> events) {
        synchronized (writer) {
            if (socket.isClosed()) return;
            try {
                ObserveCodec.eventsHead(writer, subscription.id(), events.size());
                for (int i = 0, n = events.size(); i < n; i++) writer.bytes(events.get(i).wireBytes(ObserveConnection::encode));
                writer.writeTo(out); // buffered: sent at flush(), or when the buffer is full
            } catch (IOException e) {
                closeSocket();
            }
        }
    }

    @Override
    public void flush() {
        synchronized (writer) {
            if (socket.isClosed()) return;
            try {
                out.flush();
            } catch (IOException e) {
                closeSocket();
            }
        }
    }

    @Override
    public void onOverflow(long lost, long lostTotal) {
        reply(w -> ObserveCodec.overflow(w, lost, lostTotal));
    }

    static byte[] encode(LiveEvent e) {
        ENCODED_EVENTS.increment();
        Notification n = e.notification();
        if (n != null) {
            return ObserveCodec.encodeNotification(e.sourceId(), e.sourcePath(), e.timeNanos(),
                    new ObservedNotification(n.type(), n.message(), n.sequence(), n.userData()));
        }
        return ObserveCodec.encodeEvent(e.kind().ordinal(), e.sourceId(), e.sourcePath(), e.timeNanos(), e.value(), e.childId(),
                e.childPath());
    }

    private interface Message {
        void put(LiveFrameWriter w);
    }

    /** Writes one message; a failed write ends this connection only. */
    private void reply(Message m) {
        synchronized (writer) {
            if (socket.isClosed()) return;
            try {
                m.put(writer);
                writer.writeTo(out);
                out.flush();
            } catch (IOException e) {
                closeSocket();
            }
        }
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    void close() {
        if (closed) return;
        closed = true;
        closeSocket(); // first: unblocks a dispatcher stuck in a write
        ObserverSession s = session;
        if (s != null) s.close();
        server.ended(this);
    }
}
