package io.sonde.api;

import io.sonde.api.live.LiveTree;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.ObserveStartup;
import io.sonde.core.live.PrometheusStartup;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.probe.Probes;
import java.util.Map;

/**
 * Entry point of the Sonde API: start a monitor, read and hand off the current thread's trace
 * context.
 *
 * <pre>{@code
 * try (Monitor m = Sonde.start(Map.of("writer", "file", "file.dir", "out"))) {
 *     MethodProbe p = m.methodProbe("com.acme.Shop.checkout", "(Ljava/lang/String;)V");
 *     boolean e = p.enter();
 *     try { checkout(item); } finally { p.exit(e); }
 * }
 * }</pre>
 *
 * When no monitor runs, probes are off, events are ignored and the trace accessors return 0/-1.
 */
public final class Sonde {
    private Sonde() {}

    private static volatile Monitor current;

    /** Starts a monitor configured by the defaults, config file, environment and system properties. */
    public static Monitor start() {
        return start(Map.of());
    }

    /** Like {@link #start()}, with explicit settings on top (plain keys such as {@code "writer"}). */
    public static Monitor start(Map<String, String> settings) {
        return start(SondeConfig.load(settings));
    }

    /**
     * Starts a monitor with a resolved configuration; reached from outside through
     * {@code io.sonde.api.internal} (the configuration object is not API).
     */
    static Monitor start(SondeConfig config) {
        Monitor m = started(Pipeline.start(config));
        try {
            m.prometheusWith(PrometheusStartup.startIfConfigured(m.pipeline(), Sonde::live));
        } catch (RuntimeException e) {
            m.close();
            throw new IllegalStateException("prometheus.port: " + e.getMessage(), e);
        }
        if ("on".equals(config.get(ConfigKey.OBSERVE).trim())) {
            try {
                m.observeWith(ObserveStartup.start(live(), config, m.pipeline()));
            } catch (RuntimeException e) {
                m.close();
                throw new IllegalStateException("observe=on: " + e.getMessage(), e);
            }
        }
        return m;
    }

    /** Makes a running pipeline the current monitor. */
    static Monitor started(Pipeline pipeline) {
        Monitor m = new Monitor(pipeline);
        setCurrent(m);
        return m;
    }

    /** The running monitor, or null. */
    public static Monitor current() {
        return current;
    }

    static void setCurrent(Monitor m) {
        current = m;
    }

    static synchronized void clearCurrent(Monitor m) {
        if (current == m) current = null;
    }

    private static ThreadBuffer buffer() {
        return Probes.active().currentBuffer();
    }

    /** Id of the trace the calling thread is in, or 0 outside any probed method. Allocation-free. */
    public static long currentTraceId() {
        ThreadBuffer b = buffer();
        return b == null ? 0L : b.traceId();
    }

    /** Execution order index of the innermost running probed method on this thread, or -1. */
    public static int currentOrderIndex() {
        ThreadBuffer b = buffer();
        return b == null ? -1 : b.orderIndex();
    }

    /** Number of running probed methods on this thread (0 outside a trace). */
    public static int currentDepth() {
        ThreadBuffer b = buffer();
        return b == null ? 0 : b.depth();
    }

    /**
     * The calling thread's trace context, or null outside a trace (allocates a small object). It
     * carries the time of the call as its hand-off time: pass it to {@link
     * #continueTrace(TraceContext)} in the work handed over, and the child trace records how long
     * the work waited.
     */
    public static TraceContext currentTrace() {
        ThreadBuffer b = buffer();
        if (b == null || b.depth() == 0) return null;
        return new TraceContext(b.traceId(), b.orderIndex(), b.depth(), System.nanoTime());
    }

    /**
     * Makes the next trace started on the calling thread a child of the given trace: its
     * TRACE_START names {@code parentTraceId} and {@code parentOrderIndex}. For executor hand-off:
     * capture {@link #currentTrace()} when submitting, call this in the task before its first probe.
     */
    public static void continueTrace(long parentTraceId, int parentOrderIndex) {
        ThreadBuffer b = Probes.active().buffer();
        if (b != null) b.setParent(parentTraceId, parentOrderIndex);
    }

    /**
     * {@link #continueTrace(long, int)} with a captured context (null: no parent); a context with a
     * hand-off time ({@link #currentTrace()}'s) makes the child trace start with a HANDOFF_START
     * carrying it.
     */
    public static void continueTrace(TraceContext parent) {
        if (parent == null) {
            continueTrace(0L, -1);
            return;
        }
        ThreadBuffer b = Probes.active().buffer();
        if (b != null) b.setParent(parent.traceId(), parent.orderIndex(), parent.handoffNanos(), false);
    }

    /** Created at the first {@link #live()} call. */
    private static final class LiveHolder {
        static final LiveRuntime TREE = LiveRuntime.standard();
    }

    /**
     * The process-wide monitored-object tree (live layer): objects and sensors of the application,
     * the JVM and system probes under {@code jvm/} and {@code system/}, observer sessions. Independent
     * of a running monitor; a sensor nobody subscribes to costs a field write. See docs/live.md.
     */
    public static LiveTree live() {
        return LiveHolder.TREE;
    }
}
