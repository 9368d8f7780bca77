package io.sonde.collector.observe;

import io.sonde.api.live.LiveTree;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.StringSensor;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.observe.ObserveServer;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Serves an {@link AgentDirectory} as a monitored-object tree on an observe endpoint of its own:
 *
 * <pre>
 * agents/                    Agents   (CHILD_ADDED when an agent connects for the first time)
 *   &lt;agent-id&gt;/             Agent    host, pid, firstSeen, lastSeen (ISO-8601 UTC), status, connections, frames,
 *                                     observe (host:port of its observe endpoint, empty if none) (sensors)
 * collector/                 Collector
 *   observers                connections open on this endpoint now (supplied)
 *   agents                   agents known (supplied)
 *   relayed                  observer sessions relayed to agents now (supplied)
 * </pre>
 *
 * The tree is the collector's own ({@link LiveRuntime#bare}), not the process-wide
 * {@code Sonde.live()} tree: the collector's JVM metrics do not mix in. Status, connections and
 * host/pid change at once when a connection starts or ends (on that connection's thread);
 * {@code lastSeen} and {@code frames}, which change with every frame, are copied from the
 * directory every {@link #REFRESH_MILLIS} ms. Agents stay listed for the collector's life, as in
 * the directory (bounded by the receiver's agent limit).
 */
public final class NamingEndpoint implements AutoCloseable {
    /** How often lastSeen and frames are brought up to date. */
    public static final long REFRESH_MILLIS = 1000;

    private final AgentDirectory directory;
    private final LiveRuntime tree;
    private final MonitoredObject agents;
    private final Map<UUID, AgentSensors> sensors = new ConcurrentHashMap<>();
    private final ObserveService service;
    private final ScheduledExecutorService refresher;

    private NamingEndpoint(AgentDirectory directory, ObserveOptions options, String agentToken, SSLContext agentTls) {
        this.directory = directory;
        this.tree = LiveRuntime.bare(LiveClock.system());
        this.agents = tree.object("agents", "Agents");
        MonitoredObject collector = tree.object("collector", "Collector");
        directory.onChange(this::update);
        directory.list().forEach(this::update);
        AgentRelay relay = new AgentRelay(directory, agentToken, agentTls);
        this.service = ObserveServer.start(tree, options, relay);
        collector.longAttribute("observers", "connections", "observe connections open on this endpoint now (relayed ones not counted)",
                service::connections);
        collector.longAttribute("relayed", "connections", "observer sessions relayed to agents now", relay::open);
        collector.longAttribute("agents", "agents", "agents that connected since the collector started", () -> sensors.size());
        this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sonde-collector-naming");
            t.setDaemon(true);
            return t;
        });
        refresher.scheduleWithFixedDelay(() -> directory.list().forEach(this::update), REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts serving {@code directory} on an observe endpoint.
     *
     * @param options port (0: any free one), token (required), bind address and TLS as for any observe endpoint
     * @throws IllegalArgumentException without a token, or for a bind address the endpoint refuses
     * @throws java.io.UncheckedIOException if the port cannot be bound
     */
    public static NamingEndpoint start(AgentDirectory directory, ObserveOptions options) {
        return start(directory, options, null);
    }

    /**
     * Starts serving {@code directory} on an observe endpoint that also relays observers to the
     * agents' own observe endpoints ({@link AgentRelay}), authenticating there with {@code agentToken}.
     *
     * @param agentToken the agents' observe token ({@code --agent-token-file}); null: RELAY is answered with an error saying
     *     the collector has none
     */
    public static NamingEndpoint start(AgentDirectory directory, ObserveOptions options, String agentToken) {
        return start(directory, options, agentToken, null);
    }

    /**
     * As {@link #start(AgentDirectory, ObserveOptions, String)}; {@code agentTls} is the TLS context the
     * relay dials agents that announced a TLS observe endpoint with ({@code --agent-trust-store}; null: the
     * JVM's default trust store).
     */
    public static NamingEndpoint start(AgentDirectory directory, ObserveOptions options, String agentToken, SSLContext agentTls) {
        if (options.token() == null || options.token().isEmpty()) {
            throw new IllegalArgumentException("the collector's observe endpoint needs a token (--token-file)");
        }
        return new NamingEndpoint(directory, options, agentToken, agentTls);
    }

    /** The bound port. */
    public int port() {
        return service.port();
    }

    /** The tree served (for tests and in-process observers). */
    public LiveTree tree() {
        return tree;
    }

    private void update(AgentInfo a) {
        AgentSensors s = sensors.computeIfAbsent(a.agentId(), id -> new AgentSensors(agents.getOrCreateChild(id.toString(), "Agent")));
        // a connection thread and the refresher may race with snapshots of different age: under the agent's lock each
        // takes the directory's state now, so whoever sets last sets the newest state
        synchronized (s) {
            AgentInfo now = directory.get(a.agentId());
            s.set(now != null ? now : a);
        }
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        service.close();
        tree.close();
    }

    /** The sensors of one agent's object. */
    private static final class AgentSensors {
        private final StringSensor host;
        private final LongSensor pid;
        private final StringSensor firstSeen;
        private final StringSensor lastSeen;
        private final StringSensor status;
        private final LongSensor connections;
        private final LongSensor frames;
        private final StringSensor observe;

        AgentSensors(MonitoredObject o) {
            host = o.stringSensor("host", "", "host name the agent reports");
            pid = o.longSensor("pid", "", "process id the agent reports");
            firstSeen = o.stringSensor("firstSeen", "UTC", "when its first connection delivered a frame (ISO-8601)");
            lastSeen = o.stringSensor("lastSeen", "UTC", "when it last delivered a frame or disconnected (ISO-8601; updated every second)");
            status = o.stringSensor("status", "", "connected while a connection of it is open, else disconnected");
            connections = o.longSensor("connections", "connections", "connections of it since the collector started");
            frames = o.longSensor("frames", "frames", "frames received from it since the collector started (updated every second)");
            observe = o.stringSensor("observe", "", "host:port of its observe endpoint as its HELLO announced it (relay: sonde ls COLLECTOR --agent ID);"
                    + " empty: none announced");
        }

        /** Sets every sensor; status last, so an observer told of a status change finds the rest already set. */
        void set(AgentInfo a) {
            host.set(a.host());
            pid.set(a.pid());
            firstSeen.set(Instant.ofEpochMilli(a.firstSeenMillis()).toString());
            lastSeen.set(Instant.ofEpochMilli(a.lastSeenMillis()).toString());
            connections.set(a.connections());
            frames.set(a.frames());
            observe.set(a.observe() == null ? "" : a.observe().toString());
            status.set(a.status());
        }
    }
}
