package io.sonde.api.live;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The monitored-object tree of a process (the MIB) and its management: lookup, introspection,
 * pull, suspend/resume and observer sessions.
 *
 * <pre>{@code
 * LiveTree live = Sonde.live();
 * MonitoredObject orders = live.object("shop/orders", "Orders");
 * MonitoredObject o = orders.createChild("4711", "Order");
 * LongSensor items = o.longSensor("items", "", "items in the order");
 * items.set(3);                                        // nobody subscribed: a field write
 * try (ObserverSession s = live.openSession((sub, events) -> System.out.println(events))) {
 *     s.subscribe("shop/orders/**", Qos.batch(10, Duration.ofMillis(50)));
 *     items.set(4);                                    // one event, delivered within 50 ms
 * }
 * }</pre>
 *
 * <p>Patterns are globs over paths: segments separated by {@code /}, {@code *} matches one segment
 * or part of one, {@code ?} one character, {@code **} any number of segments (also none).
 */
public interface LiveTree {
    /** The root object (path {@code ""}, id 0). */
    MonitoredObject root();

    /**
     * The object at {@code path}, created with intermediate objects if absent: the last one gets
     * {@code type}, intermediate ones type {@code "folder"}.
     */
    MonitoredObject object(String path, String type);

    /** The object at {@code path}, if any. */
    Optional<MonitoredObject> find(String path);

    /** The attribute at {@code path} ({@code object/path/name}), if any. */
    Optional<Attribute> findAttribute(String path);

    /** Objects whose path matches {@code pattern}, in path order. */
    List<MonitoredObject> objects(String pattern);

    /** Attributes whose path matches {@code pattern}, in path order. */
    List<Attribute> attributes(String pattern);

    /** Reads every attribute whose path matches {@code pattern} now (pull). */
    List<AttributeValue> pull(String pattern);

    /**
     * Suspends the sensors matching {@code pattern} (attribute paths for value sensors, object
     * paths for object sensors): they generate nothing until resumed, also those created later.
     * Returns how many existing sensors it suspended.
     */
    int suspend(String pattern);

    /**
     * Resumes the sensors matching {@code pattern} and forgets a suspension made with the same
     * pattern. Returns how many existing sensors it resumed.
     */
    int resume(String pattern);

    /** Opens a session for {@code observer} with the default queue capacity. */
    ObserverSession openSession(Observer observer);

    /** Opens a session whose queue holds {@code capacity} events per priority (a power of two is used). */
    ObserverSession openSession(Observer observer, int capacity);

    /** The open sessions. */
    List<ObserverSession> sessions();

    /**
     * Starts an observe endpoint (docs/observe-protocol.md) on 127.0.0.1:{@code port} ({@code 0}: any
     * free port): observers that send {@code token} first get a session each. Close it to stop.
     */
    default ObserveService observe(int port, String token) {
        return observe(ObserveOptions.of(port, token));
    }

    /**
     * Starts an observe endpoint as {@code options} say: port, token, bind address, TLS. A bind
     * address that is not a loopback address is refused without TLS.
     */
    ObserveService observe(ObserveOptions options);

    /**
     * The switch of the process's method probes: the one registered for this tree, else the
     * process's (the Sonde agent registers one at start), else none.
     */
    Optional<ProbeSwitch> probeSwitch();

    /** Registers {@code probes} as this tree's method-probe switch (null: back to the process's). */
    void registerProbeSwitch(ProbeSwitch probes);

    /**
     * Shows the MBeans of {@code server} whose names match {@code pattern} (an ObjectName, may be a
     * pattern such as {@code java.lang:*}) as monitored objects under {@code jmx/}, their attributes
     * sampled every {@code samplePeriod} while subscribed (see {@link JmxBridge}). Close it to stop.
     */
    JmxBridge bridgeJmx(MBeanServer server, ObjectName pattern, Duration samplePeriod);

    /** {@link #bridgeJmx(MBeanServer, ObjectName, Duration)} sampling every second. */
    default JmxBridge bridgeJmx(MBeanServer server, ObjectName pattern) {
        return bridgeJmx(server, pattern, Duration.ofSeconds(1));
    }
}
