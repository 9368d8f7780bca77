package io.sonde.collector;

import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.archive.FrameHandler;
import io.sonde.collector.archive.HeldSequences;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.observe.NamingEndpoint;
import io.sonde.core.live.observe.TlsContexts;
import io.sonde.format.stream.ObserveEndpoint;
import javax.net.ssl.SSLContext;
import io.sonde.collector.receive.Delivery;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.api.live.ObserveOptions;
import io.sonde.format.Format;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The collector: a {@link Receiver} (envelope checks, limits, sequence accounting, one thread per
 * connection) whose frames become {@link Envelope}s handed to a set of {@link DataHandler}s, and
 * a directory of the agents that connected ({@link AgentDirectory}).
 *
 * <pre>{@code
 * Collector c = Collector.start(new Collector.Settings(bindAddress, outDir,
 *         HandlerSet.byName(List.of("archive", "database")), Map.of()), ReceiverListener.logging(), System.err::println);
 * ...
 * c.stop();   // connections end at a frame boundary, queues drained, handlers closed (database committed)
 * }</pre>
 */
public final class Collector implements AutoCloseable {
    /** How long {@link #stop()} lets each queued handler work through its queue. */
    public static final long DRAIN_MILLIS = 60_000;

    private final HandlerSet handlers;
    private final List<DataHandler> handlerList;
    private final AgentDirectory agents = new AgentDirectory();
    private final AtomicLong connections = new AtomicLong();
    private final Receiver receiver;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean drained = true;
    private volatile NamingEndpoint naming;

    /**
     * What a collector runs.
     *
     * @param bind address and port to listen on (port 0: any)
     * @param out the output folder (archive segment files, archive.db)
     * @param handlers handlers in order (see {@link HandlerSet#byName})
     * @param options handler options ({@code database.url}, {@code queue.frames}, {@code queue.bytes}, …)
     * @param limits the receiver's limits
     * @param token the token agents must present (acknowledged delivery); null: none required
     * @param tls the agents' data port serves TLS with this context ({@link io.sonde.core.live.observe.TlsContexts#server}); null:
     *     plain TCP, then only a loopback {@code bind} is allowed
     */
    public record Settings(InetSocketAddress bind, Path out, List<DataHandler> handlers, Map<String, String> options, ReceiverLimits limits,
            String token, SSLContext tls) {
        public Settings(InetSocketAddress bind, Path out, List<DataHandler> handlers, Map<String, String> options, ReceiverLimits limits,
                String token) {
            this(bind, out, handlers, options, limits, token, null);
        }

        public Settings(InetSocketAddress bind, Path out, List<DataHandler> handlers, Map<String, String> options, ReceiverLimits limits) {
            this(bind, out, handlers, options, limits, null);
        }

        public Settings(InetSocketAddress bind, Path out, List<DataHandler> handlers, Map<String, String> options) {
            this(bind, out, handlers, options, ReceiverLimits.defaults());
        }
    }

    private Collector(HandlerSet handlers, Settings s, ReceiverListener listener, Delivery delivery) throws IOException {
        this.handlers = handlers;
        this.handlerList = List.copyOf(s.handlers());
        this.receiver = Receiver.start(s.bind(), new Streams(), listener, s.limits(), delivery, s.tls());
    }

    /**
     * Opens the handlers and starts listening.
     *
     * @param notices where handler problems are reported, one line each (thread-safe)
     * @throws IOException if the address cannot be bound or a lossless handler (the archive) cannot open
     * @throws IllegalArgumentException for a bad queue option, or a bind address that is not loopback without TLS
     */
    public static Collector start(Settings s, ReceiverListener listener, Consumer<String> notices) throws IOException {
        // the observe endpoint's rule: a port others can reach carries the token and the data, so only with TLS
        TlsContexts.requireTls("collector", s.bind().getHostString(), s.bind().getAddress(), s.tls() != null);
        HandlerConfig config = new HandlerConfig(s.out(), s.options());
        int queueFrames = config.intOption("queue.frames", HandlerSet.DEFAULT_QUEUE_FRAMES);
        long queueBytes = (long) config.intOption("queue.mib", (int) (HandlerSet.DEFAULT_QUEUE_BYTES >> 20)) << 20;
        // What the archive holds from earlier runs: frames agents re-send after a restart are duplicates. Only when the
        // archive is the one lossless handler: another (kafka) cannot say what it made durable before a kill, so every
        // frame the agent still holds is taken again (the archive may then store some twice, never fewer).
        boolean onlyArchive = s.handlers().stream().filter(DataHandler::lossless).map(DataHandler::name).toList()
                .equals(List.of(ArchiveHandler.NAME));
        Delivery delivery = new Delivery(s.token(), onlyArchive ? HeldSequences.recover(s.out()) : Map.of());
        HandlerSet set = HandlerSet.open(s.handlers(), config, queueFrames, queueBytes, notices);
        try {
            return new Collector(set, s, listener, delivery);
        } catch (IOException | RuntimeException e) {
            set.close(DRAIN_MILLIS);
            throw e;
        }
    }

    public int port() {
        return receiver.port();
    }

    public InetSocketAddress address() {
        return receiver.address();
    }

    /** The receiver's counters (connections, per agent frames and sequence gaps). */
    public ReceiverStatus receiverStatus() {
        return receiver.status();
    }

    /** Each handler's counters (handled, dropped, queued, errors). */
    public List<HandlerStatus> handlerStatus() {
        return handlers.status();
    }

    /** The handlers it runs, in order (for what they serve themselves, e.g. their part of {@code /metrics}). */
    public List<DataHandler> handlers() {
        return handlerList;
    }

    /** Every agent that connected since start. */
    public List<AgentInfo> agents() {
        return agents.list();
    }

    /**
     * Serves the agents this collector knows as a monitored-object tree on an observe endpoint
     * ({@code agents/<agent-id>}, see {@link NamingEndpoint}); closed by {@link #stop()}. At most once.
     *
     * @param options port, token (required), bind address and TLS of the endpoint
     * @throws IllegalArgumentException without a token or for a refused bind address
     * @throws IllegalStateException if already serving or stopped
     */
    public synchronized NamingEndpoint observe(ObserveOptions options) {
        return observe(options, null);
    }

    /**
     * As {@link #observe(ObserveOptions)}, relaying observers to the agents' own observe endpoints
     * (RELAY, see {@link io.sonde.collector.observe.AgentRelay}) with {@code agentToken}, the agents'
     * observe token (null: relaying is refused with a message saying so).
     */
    public synchronized NamingEndpoint observe(ObserveOptions options, String agentToken) {
        return observe(options, agentToken, null);
    }

    /**
     * As {@link #observe(ObserveOptions, String)}; the relay dials agents that announced a TLS observe
     * endpoint with {@code agentTls} (the agents' certificates or their CA, {@code --agent-trust-store};
     * null: the JVM's default trust store), checking that each certificate names the host the agent announced.
     */
    public synchronized NamingEndpoint observe(ObserveOptions options, String agentToken, SSLContext agentTls) {
        if (naming != null || stopped.get()) throw new IllegalStateException(stopped.get() ? "collector stopped" : "naming already served");
        naming = NamingEndpoint.start(agents, options, agentToken, agentTls);
        return naming;
    }

    /** The naming tree's endpoint started by {@link #observe}, or null. */
    public NamingEndpoint naming() {
        return naming;
    }

    /** True unless a queued handler did not finish its queue at {@link #stop()} in time. */
    public boolean drained() {
        return drained;
    }

    /**
     * Orderly stop: stops accepting, lets each connection finish its current frame, then lets each
     * queued handler work through its queue (bounded by {@link #DRAIN_MILLIS}), flush and close.
     */
    public void stop() {
        if (stopped.compareAndSet(false, true)) {
            receiver.stop();
            closeNaming();
            drained = handlers.close(DRAIN_MILLIS);
        }
    }

    /** As if killed: connections and files closed at once; queued handlers are still closed (what they committed stays). */
    public void abort() {
        if (stopped.compareAndSet(false, true)) {
            receiver.abort();
            closeNaming();
            drained = handlers.close(1_000);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized void closeNaming() {
        if (naming != null) naming.close();
    }

    /** The receiver's frame handler: one {@link Sink} per connection. */
    private final class Streams implements FrameHandler {
        @Override
        public StreamSink open(UUID agentId, byte[] streamHeader, String peer) {
            return new Sink(connections.incrementAndGet(), streamHeader, peer);
        }
    }

    /** One connection: makes envelopes of its frames and hands them to the handlers. */
    private final class Sink implements FrameHandler.StreamSink {
        private final long connection;
        private final byte[] streamHeader;
        private final String peer;
        private final AtomicBoolean ended = new AtomicBoolean();
        private StreamInfo stream;
        private ObserveEndpoint observe;
        private volatile boolean started;
        private long index;

        Sink(long connection, byte[] streamHeader, String peer) {
            this.connection = connection;
            this.streamHeader = streamHeader.clone();
            this.peer = peer;
        }

        @Override
        public void frame(byte[] frame, int length) throws IOException {
            if (stream == null) {
                stream = new StreamInfo(connection, agentOf(frame), hostOf(frame), pidOf(frame), peer, System.currentTimeMillis(), streamHeader,
                        handlers.decodes());
                agents.connected(stream, observe);
                started = true;
                rethrow(() -> handlers.streamStarted(stream));
            }
            byte[] bytes = handlers.needsCopy() ? Arrays.copyOf(frame, length) : frame;
            Envelope e = new Envelope(stream, index++, bytes, length);
            agents.seen(stream.agentId(), System.currentTimeMillis());
            rethrow(() -> handlers.frame(e));
        }

        @Override
        public void announced(ObserveEndpoint endpoint) {
            observe = endpoint;
        }

        @Override
        public void force() throws IOException {
            if (stream != null) {
                rethrow(() -> handlers.force(stream));
            }
        }

        @Override
        public void close() throws IOException {
            end(true);
        }

        @Override
        public void abort() {
            try {
                end(false);
            } catch (IOException ignored) {
                // killed: nothing more to do
            }
        }

        private void end(boolean clean) throws IOException {
            if (started && ended.compareAndSet(false, true)) {
                agents.disconnected(stream, System.currentTimeMillis());
                rethrow(() -> handlers.streamEnded(stream, clean));
            }
        }

        @Override
        public String target() {
            StreamInfo s = stream;
            return s == null ? null : s.segment();
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    /** Passes on what a lossless handler threw as the receiver expects it (I/O or runtime errors end the connection). */
    private static void rethrow(Call c) throws IOException {
        try {
            c.run();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    private static UUID agentOf(byte[] f) {
        return new UUID(i64(f, Format.FRAME_OFF_AGENT_MSB), i64(f, Format.FRAME_OFF_AGENT_LSB));
    }

    private static long pidOf(byte[] f) {
        return (f[Format.FRAME_OFF_PID] & 0xFFL) | (f[Format.FRAME_OFF_PID + 1] & 0xFFL) << 8 | (f[Format.FRAME_OFF_PID + 2] & 0xFFL) << 16
                | (f[Format.FRAME_OFF_PID + 3] & 0xFFL) << 24;
    }

    private static String hostOf(byte[] f) {
        int n = (f[Format.FRAME_OFF_HOST_LENGTH] & 0xFF) | (f[Format.FRAME_OFF_HOST_LENGTH + 1] & 0xFF) << 8;
        return new String(f, Format.FRAME_OFF_HOST, n, StandardCharsets.UTF_8); // the receiver checked that n fits the header
    }

    private static long i64(byte[] f, int off) {
        return java.nio.ByteBuffer.wrap(f, off, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
    }
}
