package io.sonde.core.live;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.JmxBridge;
import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.LiveTree;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Observer;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.core.live.jmx.MBeanBridge;
import io.sonde.core.live.observe.ObserveServer;
import io.sonde.core.live.mib.AttributeNode;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.mib.MibTree;
import io.sonde.core.live.mib.PathPattern;
import io.sonde.core.live.probe.JvmProbes;
import io.sonde.core.live.session.ObserverEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/** A live tree with its sessions and, optionally, the JVM and system probes. */
public final class LiveRuntime implements LiveTree, AutoCloseable {
    /** Events per priority queue of a session unless asked otherwise. */
    public static final int DEFAULT_CAPACITY = 4096;
    /** How often subscribed JVM and system probes are sampled unless asked otherwise. */
    public static final long DEFAULT_PROBE_PERIOD_MS = 1000;

    private final MibTree tree;
    private final JvmProbes probes;
    private final List<ObserverEndpoint> sessions = new CopyOnWriteArrayList<>();
    private volatile ProbeSwitch ownProbeSwitch;

    private LiveRuntime(LiveClock clock, long probePeriodMillis) {
        this.tree = new MibTree(clock);
        this.probes = probePeriodMillis > 0 ? JvmProbes.register(tree, probePeriodMillis) : null;
    }

    /** A tree with the JVM and system probes sampled every {@code probePeriodMillis} while subscribed. */
    public static LiveRuntime withProbes(LiveClock clock, long probePeriodMillis) {
        if (probePeriodMillis < 1) throw new IllegalArgumentException("probe period: " + probePeriodMillis + " ms");
        return new LiveRuntime(clock, probePeriodMillis);
    }

    /** The process-wide tree: system clock, probes every {@link #DEFAULT_PROBE_PERIOD_MS}. */
    public static LiveRuntime standard() {
        return withProbes(LiveClock.system(), DEFAULT_PROBE_PERIOD_MS);
    }

    /** A tree without probes (tests, or an application that wants only its own objects). */
    public static LiveRuntime bare(LiveClock clock) {
        return new LiveRuntime(clock, 0);
    }

    public MibTree mib() {
        return tree;
    }

    /** The probes, or null for a bare tree. */
    public JvmProbes probes() {
        return probes;
    }

    /** A session without a dispatcher thread: the caller pumps it (tests; an endpoint with its own loop). */
    public ObserverEndpoint openManualSession(Observer observer, int capacity) {
        ObserverEndpoint s = ObserverEndpoint.manual(tree, observer, capacity, sessions::remove);
        sessions.add(s);
        return s;
    }

    @Override
    public MonitoredObject root() {
        return tree.root();
    }

    @Override
    public MonitoredObject object(String path, String type) {
        if (path == null) throw new IllegalArgumentException("object path: null");
        return tree.object(path, type);
    }

    @Override
    public Optional<MonitoredObject> find(String path) {
        return Optional.ofNullable(tree.find(path));
    }

    @Override
    public Optional<Attribute> findAttribute(String path) {
        return Optional.ofNullable(tree.findAttribute(path));
    }

    @Override
    public List<MonitoredObject> objects(String pattern) {
        return new ArrayList<>(tree.objects(PathPattern.parse(pattern)));
    }

    @Override
    public List<Attribute> attributes(String pattern) {
        return new ArrayList<>(tree.attributes(PathPattern.parse(pattern)));
    }

    @Override
    public List<AttributeValue> pull(String pattern) {
        List<AttributeValue> out = new ArrayList<>();
        for (AttributeNode a : tree.attributes(PathPattern.parse(pattern))) out.add(a.read());
        return out;
    }

    @Override
    public int suspend(String pattern) {
        return tree.suspend(PathPattern.parse(pattern));
    }

    @Override
    public int resume(String pattern) {
        return tree.resume(PathPattern.parse(pattern));
    }

    @Override
    public ObserverSession openSession(Observer observer) {
        return openSession(observer, DEFAULT_CAPACITY);
    }

    @Override
    public ObserverSession openSession(Observer observer, int capacity) {
        ObserverEndpoint s = ObserverEndpoint.start(tree, observer, capacity, sessions::remove);
        sessions.add(s);
        return s;
    }

    @Override
    public List<ObserverSession> sessions() {
        return new ArrayList<>(sessions);
    }

    @Override
    public ObserveService observe(ObserveOptions options) {
        return ObserveServer.start(this, options);
    }

    @Override
    public Optional<ProbeSwitch> probeSwitch() {
        ProbeSwitch own = ownProbeSwitch;
        return Optional.ofNullable(own != null ? own : ProbeSwitch.forProcess());
    }

    @Override
    public void registerProbeSwitch(ProbeSwitch probes) {
        this.ownProbeSwitch = probes;
    }

    @Override
    public JmxBridge bridgeJmx(MBeanServer server, ObjectName pattern, Duration samplePeriod) {
        if (samplePeriod == null || samplePeriod.toMillis() < 1) {
            throw new IllegalArgumentException("JMX bridge sample period: " + samplePeriod + " is below 1 ms");
        }
        return MBeanBridge.start(tree, server, pattern, samplePeriod.toMillis());
    }

    /** Closes every session and stops the probe sampler. */
    @Override
    public void close() {
        for (ObserverEndpoint s : sessions) s.close();
        if (probes != null) probes.close();
    }
}
