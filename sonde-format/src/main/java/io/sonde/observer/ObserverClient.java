package io.sonde.observer;

import io.sonde.format.observe.AttributeInfo;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.LiveFrameInput;
import io.sonde.format.observe.LiveFrameWriter;
import io.sonde.format.observe.ObjectInfo;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.observe.ProbeListing;
import io.sonde.format.observe.SubscriptionInfo;
import io.sonde.format.stream.TlsSockets;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * The Java observer client (docs/observe-protocol.md): one TCP connection to an observe endpoint,
 * with requests as blocking calls and pushed deliveries to one {@link Observer}. Needs only
 * sonde-format: none of the observed process's classes. Thread-safe; requests may overlap.
 *
 * <pre>{@code
 * try (ObserverClient c = ObserverClient.connect("127.0.0.1", 7712, token, (sub, events) -> events.forEach(System.out::println))) {
 *     c.list("shop/**");
 *     int id = c.subscribe("shop/orders/*\/items", ObserverClient.ALL_KINDS, DeliveryQos.batch(10, Duration.ofMillis(50)));
 *     ...
 *     c.unsubscribe(id);
 * }
 * }</pre>
 */
public final class ObserverClient implements AutoCloseable {
    /** Every event kind. */
    public static final Set<ObservedEvent.Kind> ALL_KINDS = Set.of(ObservedEvent.Kind.values());
    /** How long a request waits for its answer unless set otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** A LIST answer. */
    public record Listing(List<ObjectInfo> objects, List<AttributeInfo> attributes) {}

    private final Socket socket;
    private final OutputStream out;
    private final LiveFrameWriter writer = new LiveFrameWriter(new UUID(0L, 0L), ProcessHandle.current().pid(), "");
    private final LiveFrameInput in;
    private final Observer observer;
    private final Map<Integer, CompletableFuture<PayloadReader>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger nextRequest = new AtomicInteger(1);
    private final Thread reader;
    private volatile Duration timeout = DEFAULT_TIMEOUT;
    /** This connection's id at the endpoint (protocol version 2 tells it in the HELLO answer). */
    private volatile int connectionId;
    /** The protocol version of this connection: 3, or 2 after falling back ({@link #open}). */
    private volatile int version = ObserveProtocol.PROTOCOL_VERSION;
    private volatile boolean closed;
    /** Why the endpoint ended the connection, if it said so (an ERROR to request 0 before closing). */
    private volatile ObserveException endReason;

    private ObserverClient(Socket socket, Observer observer) throws IOException {
        this.socket = socket;
        this.observer = observer;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        this.in = new LiveFrameInput(socket.getInputStream(), socket.getRemoteSocketAddress().toString());
        this.reader = new Thread(this::readLoop, "sonde-observer-" + socket.getLocalPort());
        this.reader.setDaemon(true);
    }

    /**
     * Connects and authenticates with {@code token}. Throws {@link ObserveException} if the endpoint
     * refuses (wrong token: code {@link ObserveProtocol#ERR_BAD_TOKEN}).
     */
    public static ObserverClient connect(String host, int port, String token, Observer observer) throws IOException {
        return connect(host, port, token, observer, null);
    }

    /**
     * Connects over TLS with {@code tls} (see {@link #trusting}), checking that the endpoint's
     * certificate names {@code host} (a DNS name or IP address in its subject alternative names),
     * then authenticates with {@code token}. {@code tls} null: plain TCP, as
     * {@link #connect(String, int, String, Observer)}.
     */
    public static ObserverClient connect(String host, int port, String token, Observer observer, SSLContext tls)
            throws IOException {
        return open(host, port, observer, tls, version -> (w, req) -> ObserveCodec.hello(w, req, version, token));
    }

    /**
     * Connects to agent {@code agent} through a collector: to the collector's observe endpoint
     * {@code host:port} with the collector's {@code token}, which opens a session at the agent's own
     * observe endpoint and relays it both ways (docs/collector.md, "Relay"). The client works as with
     * a direct connection (every request, subscription and QoS is the agent's); when the agent goes
     * away, {@link Observer#onClosed} gets an {@link ObserveException} saying so.
     *
     * <pre>{@code
     * try (ObserverClient c = ObserverClient.connectRelayed("127.0.0.1", 7713, collectorToken, "da246fa0", observer)) {
     *     c.list("**");
     * }
     * }</pre>
     *
     * @param agent the agent's id as the collector lists it ({@code agents/<id>}), or a unique prefix of it
     * @throws ObserveException the collector refused: wrong token ({@link ObserveProtocol#ERR_BAD_TOKEN}), unknown agent
     *     ({@link ObserveProtocol#ERR_UNKNOWN_PATH}), agent without a reachable observe endpoint or refusing the collector
     *     ({@link ObserveProtocol#ERR_UNAVAILABLE}); the message says which
     */
    public static ObserverClient connectRelayed(String host, int port, String token, String agent, Observer observer) throws IOException {
        return connectRelayed(host, port, token, agent, observer, null);
    }

    /** {@link #connectRelayed(String, int, String, String, Observer)} over TLS to the collector, as {@link #connect(String, int, String, Observer, SSLContext)}. */
    public static ObserverClient connectRelayed(String host, int port, String token, String agent, Observer observer, SSLContext tls)
            throws IOException {
        return open(host, port, observer, tls, version -> (w, req) -> ObserveCodec.relay(w, req, version, token, agent));
    }

    /** The oldest protocol version this client falls back to: 2 has everything but the probe listing. */
    static final int FALLBACK_VERSION = 2;

    /**
     * Connects with protocol version 3; an endpoint that refuses that version (ERROR VERSION to the
     * opening, as one that speaks only version 2 does; it then closes the connection) is connected to
     * again with version 2, and the client then refuses what version 2 lacks (the probe listing).
     */
    private static ObserverClient open(String host, int port, Observer observer, SSLContext tls, java.util.function.IntFunction<RequestEncoder> opening)
            throws IOException {
        try {
            return open(host, port, observer, tls, ObserveProtocol.PROTOCOL_VERSION, opening.apply(ObserveProtocol.PROTOCOL_VERSION));
        } catch (ObserveException e) {
            if (e.code() != ObserveProtocol.ERR_VERSION) throw e;
            return open(host, port, observer, tls, FALLBACK_VERSION, opening.apply(FALLBACK_VERSION));
        }
    }

    /** Connects and sends {@code opening} (HELLO or RELAY of {@code version}) as the first request; its OK carries the connection id. */
    private static ObserverClient open(String host, int port, Observer observer, SSLContext tls, int version, RequestEncoder opening)
            throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), (int) DEFAULT_TIMEOUT.toMillis());
            s.setTcpNoDelay(true);
            if (tls != null) s = handshake(tls, s, host, port);
            ObserverClient c = new ObserverClient(s, observer);
            c.version = version;
            synchronized (c.writer) {
                c.out.write(LiveFrameWriter.streamHeader());
            }
            c.reader.start();
            c.connectionId = (int) okResult(c.request(opening, ObserveProtocol.OK));
            return c;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Layers TLS over the connected socket {@code plain} and completes the handshake (bounded by the default timeout). */
    private static Socket handshake(SSLContext tls, Socket plain, String host, int port) throws IOException {
        try {
            return TlsSockets.handshake(tls, plain, host, port, (int) DEFAULT_TIMEOUT.toMillis());
        } catch (IOException e) {
            throw new ObserveException(0, e.getMessage());
        }
    }

    /**
     * A TLS context that trusts the certificates of {@code trustStore} (PKCS12 or JKS, detected;
     * {@code password} may be null for a store without integrity check).
     */
    public static SSLContext trusting(Path trustStore, char[] password) throws IOException {
        return TlsSockets.trusting(trustStore, password);
    }

    /** How long requests wait for their answer. */
    public void timeout(Duration t) {
        this.timeout = t;
    }

    /** The objects and attributes whose paths match {@code pattern} (a literal path must exist). */
    public Listing list(String pattern) throws IOException {
        PayloadReader r = request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.LIST, req, pattern), ObserveProtocol.LISTING);
        List<ObjectInfo> objects = new ArrayList<>();
        for (int i = r.u32(); i > 0; i--) objects.add(ObserveCodec.readObject(r));
        List<AttributeInfo> attributes = new ArrayList<>();
        for (int i = r.u32(); i > 0; i--) attributes.add(ObserveCodec.readAttribute(r));
        r.end();
        return new Listing(objects, attributes);
    }

    /** Reads the attributes whose paths match {@code pattern} now (pull). */
    public List<AttributeReading> get(String pattern) throws IOException {
        PayloadReader r = request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.GET, req, pattern), ObserveProtocol.VALUES);
        List<AttributeReading> values = new ArrayList<>();
        for (int i = r.u32(); i > 0; i--) values.add(ObserveCodec.readReading(r));
        r.end();
        return values;
    }

    /** Subscribes; returns the subscription id that deliveries name. */
    public int subscribe(String pattern, Set<ObservedEvent.Kind> kinds, DeliveryQos qos) throws IOException {
        int mask = 0;
        for (ObservedEvent.Kind k : kinds) mask |= k.bit();
        int m = mask;
        return (int) okResult(request((w, req) -> ObserveCodec.subscribe(w, req, pattern, m, qos), ObserveProtocol.OK));
    }

    public void unsubscribe(int subscription) throws IOException {
        request((w, req) -> ObserveCodec.unsubscribe(w, req, subscription), ObserveProtocol.OK);
    }

    /** Suspends the matching sensors in the observed process; returns how many existing ones. */
    public int suspend(String pattern) throws IOException {
        return (int) okResult(request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.SUSPEND, req, pattern), ObserveProtocol.OK));
    }

    /** Resumes the matching sensors; returns how many existing ones. */
    public int resume(String pattern) throws IOException {
        return (int) okResult(request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.RESUME, req, pattern), ObserveProtocol.OK));
    }

    /** Switches on the observed process's method probes matching {@code pattern}; returns how many changed. */
    public int enableProbes(String pattern) throws IOException {
        return (int) okResult(request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.PROBES_ON, req, pattern), ObserveProtocol.OK));
    }

    /**
     * Switches off the matching method probes; returns how many changed. Without a Sonde agent in the
     * observed process: {@link ObserveException} with code {@link ObserveProtocol#ERR_UNAVAILABLE}.
     */
    public int disableProbes(String pattern) throws IOException {
        return (int) okResult(request((w, req) -> ObserveCodec.patternRequest(w, ObserveProtocol.PROBES_OFF, req, pattern), ObserveProtocol.OK));
    }

    /**
     * One page of the observed process's method probes whose names ({@code <binary class
     * name>.<method name>}) match {@code pattern} (the agent's {@code include} wildcards): each with
     * its id, signature, on or off, and who set that state and why (configuration, a run-time switch,
     * the overhead budget). The page holds the matches from the {@code offset}-th on (from 0), at
     * most {@code limit} and at most {@link ObserveProtocol#MAX_PROBE_PAGE}; {@link
     * ProbeListing#truncated()} says whether more follow, {@link ProbeListing#total()} how many match.
     * A limit of 0 asks for the count only. Protocol version 3.
     *
     * <pre>{@code
     * for (ProbeListing page = c.probes("com.shop.*", 0, 500); ; page = c.probes("com.shop.*", page.nextOffset(), 500)) {
     *     page.probes().forEach(p -> System.out.println((p.on() ? "on  " : "off ") + p.name() + p.signature()));
     *     if (!page.truncated()) break;
     * }
     * }</pre>
     *
     * @throws ObserveException without a Sonde agent in the observed process, code {@link
     *     ObserveProtocol#ERR_UNAVAILABLE}; an empty pattern, {@link ObserveProtocol#ERR_BAD_ARGUMENT}; an
     *     endpoint of protocol version 2 (this client fell back to it), {@link ObserveProtocol#ERR_NOT_IN_VERSION}
     *     without asking the endpoint
     */
    public ProbeListing probes(String pattern, int offset, int limit) throws IOException {
        if (offset < 0 || limit < 0) throw new IllegalArgumentException("probes: offset " + offset + " and limit " + limit + " must be >= 0");
        if (version < 3) {
            throw new ObserveException(ObserveProtocol.ERR_NOT_IN_VERSION, "endpoint speaks observe protocol " + version + ": probe listing needs 3");
        }
        PayloadReader r = request((w, req) -> ObserveCodec.probeList(w, req, pattern, offset, limit), ObserveProtocol.PROBE_LISTING);
        return ObserveCodec.readProbeListing(r);
    }

    /** The subscriptions of this connection, or ({@code allConnections}) of every connection of the endpoint. */
    public List<SubscriptionInfo> subscriptions(boolean allConnections) throws IOException {
        int scope = allConnections ? ObserveProtocol.SCOPE_ALL : ObserveProtocol.SCOPE_OWN;
        PayloadReader r = request((w, req) -> ObserveCodec.subscriptions(w, req, scope), ObserveProtocol.SUBSCRIPTION_LIST);
        List<SubscriptionInfo> out = new ArrayList<>();
        for (int i = r.u32(); i > 0; i--) out.add(ObserveCodec.readSubscription(r));
        r.end();
        return out;
    }

    /**
     * Ends subscription {@code subscription} of connection {@code connection} (this connection's own
     * id, or 0, for its own); the other connection is told ({@link Observer#onSubscriptionEnded}).
     */
    public void endSubscription(int connection, int subscription) throws IOException {
        request((w, req) -> ObserveCodec.endSubscription(w, req, connection, subscription), ObserveProtocol.OK);
    }

    /**
     * The observe protocol version of this connection: {@link ObserveProtocol#PROTOCOL_VERSION}, or 2
     * when the endpoint refused version 3 and the client connected again with 2.
     */
    public int protocolVersion() {
        return version;
    }

    /** This connection's id at the endpoint (what SUBSCRIPTION_LIST names it by). */
    public int connectionId() {
        return connectionId;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean isClosed() {
        return closed || socket.isClosed();
    }

    private static long okResult(PayloadReader r) {
        long v = r.i64();
        r.end();
        return v;
    }

    /** Encodes one request into the frame writer with the given request id. */
    private interface RequestEncoder {
        void encode(LiveFrameWriter w, int requestId);
    }

    private PayloadReader request(RequestEncoder encoder, byte expected) throws IOException {
        int id = nextRequest.getAndIncrement();
        CompletableFuture<PayloadReader> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            synchronized (writer) {
                encoder.encode(writer, id);
                writer.writeTo(out);
                out.flush();
            }
            PayloadReader r = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            int type = r.type();
            r.u32(); // request id, matched already
            if (type == ObserveProtocol.ERROR) {
                int code = r.u16();
                throw new ObserveException(code, r.str());
            }
            if (type != expected) {
                throw new ObserveException(0, "answer " + ObserveProtocol.messageName(type) + " to request " + id + ", expected "
                        + ObserveProtocol.messageName(expected));
            }
            return r;
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException ? (IOException) c : new IOException(c);
        } catch (TimeoutException e) {
            throw new ObserveException(0, "no answer to request " + id + " within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ObserveException(0, "interrupted waiting for request " + id);
        } finally {
            pending.remove(id);
        }
    }

    private void readLoop() {
        Throwable cause = null;
        try {
            if (!in.readStreamHeader()) throw new IOException(in.source() + ": endpoint closed before its stream header");
            for (PayloadReader r; (r = in.next()) != null; ) {
                int type = r.type();
                if (type == ObserveProtocol.EVENTS) {
                    int sub = r.u32();
                    int n = r.u32();
                    List<ObservedEvent> events = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) events.add(ObserveCodec.readEvent(r));
                    r.end();
                    observer.onEvents(sub, events);
                } else if (type == ObserveProtocol.OVERFLOW) {
                    long lost = r.i64();
                    long total = r.i64();
                    observer.onOverflow(lost, total);
                } else if (type == ObserveProtocol.SUBSCRIPTION_ENDED) {
                    int sub = r.u32();
                    int by = r.u32();
                    String reason = r.str();
                    r.end();
                    observer.onSubscriptionEnded(sub, by, reason);
                } else {
                    int request = r.u32();
                    if (type == ObserveProtocol.ERROR && request == 0) {
                        // no request of ours has id 0: the endpoint says why it ends the connection (e.g. the relayed agent left)
                        int code = r.u16();
                        endReason = new ObserveException(code, r.str());
                        continue;
                    }
                    CompletableFuture<PayloadReader> f = pending.get(request);
                    // the frame buffer is reused for the next frame: the waiting request gets a copy
                    if (f != null) f.complete(r.copy());
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) cause = e;
        } finally {
            if (cause == null && !closed) cause = endReason;
            IOException ended = new ObserveException(cause instanceof ObserveException oe ? oe.code() : 0, "connection to " + in.source()
                    + " closed" + (cause == null ? "" : ": " + cause.getMessage()));
            for (CompletableFuture<PayloadReader> f : pending.values()) f.completeExceptionally(ended);
            closed = true;
            try {
                socket.close();
            } catch (IOException ignored) {
                // already failing
            }
            observer.onClosed(cause);
        }
    }
}
