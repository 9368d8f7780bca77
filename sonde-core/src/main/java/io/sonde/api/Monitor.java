package io.sonde.api;

import io.sonde.core.live.ObserveStartup;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.prometheus.PrometheusEndpoint;
import io.sonde.core.probe.ProbeRuntime;
import io.sonde.format.Format;
import java.util.UUID;

/**
 * A running monitor: defines probes, event types and strings, exposes counters and switches, and
 * closes the pipeline. Start one with {@link Sonde#start()}; only one runs per JVM at a time.
 * All methods are slow-path (they may lock and allocate); the hot path is in the objects they
 * return.
 */
public final class Monitor implements AutoCloseable {
    private final Pipeline pipeline;
    /** The observe endpoint started with this monitor (configuration key {@code observe=on}), or null. */
    private volatile ObserveStartup.Started observe;
    /** The Prometheus endpoint started with this monitor (configuration key {@code prometheus.port}), or null. */
    private volatile PrometheusEndpoint prometheus;

    Monitor(Pipeline pipeline) {
        this.pipeline = pipeline;
    }

    void observeWith(ObserveStartup.Started started) {
        observe = started;
        System.err.println("sonde: " + started.describe());
    }

    /** The port of the observe endpoint started with this monitor ({@code observe=on}), or -1 if none. */
    public int observePort() {
        ObserveStartup.Started o = observe;
        return o == null ? -1 : o.service().port();
    }

    void prometheusWith(PrometheusEndpoint endpoint) {
        prometheus = endpoint;
    }

    /** The port of the Prometheus endpoint started with this monitor ({@code prometheus.port}), or -1 if none. */
    public int prometheusPort() {
        PrometheusEndpoint p = prometheus;
        return p == null ? -1 : p.port();
    }

    /** The pipeline underneath; reached from outside through {@code io.sonde.api.internal}. */
    Pipeline pipeline() {
        return pipeline;
    }

    /**
     * Defines a method probe (or returns the existing one for the same name and signature). New
     * probes are switched on.
     *
     * @param name e.g. {@code "com.acme.Shop.checkout"}
     * @param signature e.g. a JVM descriptor {@code "(Ljava/lang/String;)V"}
     */
    public MethodProbe methodProbe(String name, String signature) {
        int id = pipeline.defineProbe(name, signature);
        return new MethodProbe(pipeline.runtime(), id, name, signature);
    }

    /** Switches the probe with this id on or off (for callers of the static entry points). */
    public void setProbeEnabled(int probeId, boolean on) {
        pipeline.runtime().setEnabled(probeId, on);
    }

    /**
     * Defines a custom event type with up to 255 fields. Defining the same name with the same
     * fields again returns an equivalent type; with other fields it fails.
     */
    public EventType eventType(String name, EventField... fields) {
        byte[] types = new byte[fields.length];
        String[] names = new String[fields.length];
        int bytes = Format.EVENT_HEADER_BYTES;
        for (int i = 0; i < fields.length; i++) {
            types[i] = fields[i].type;
            names[i] = fields[i].name;
            bytes += Format.fieldBytes(types[i]);
        }
        if (bytes > pipeline.maxEventBytes()) {
            throw new IllegalArgumentException("event type " + name + " needs " + bytes
                    + " bytes per record; buffer.bytes allows at most " + pipeline.maxEventBytes());
        }
        int id = pipeline.registry().eventType(name, types, names);
        return new EventType(pipeline.runtime(), id, name, types, bytes);
    }

    /** The id of a string (defined once, then cached), for string fields of events. */
    public int string(String value) {
        return pipeline.registry().string(value);
    }

    /** Current counters (produced, written, dropped by reason); final after close. */
    public Counters counters() {
        return new Counters(pipeline.counters());
    }

    /** CPU time mode: "off", "on" (every enter/exit) or "roots" (trace roots only). */
    public void setCpuTime(String mode) {
        switch (mode) {
            case "off": pipeline.runtime().setCpuMode(ProbeRuntime.CPU_OFF); break;
            case "on": pipeline.runtime().setCpuMode(ProbeRuntime.CPU_ON); break;
            case "roots": pipeline.runtime().setCpuMode(ProbeRuntime.CPU_ROOTS); break;
            default: throw new IllegalArgumentException("cpu time mode must be off, on or roots: " + mode);
        }
    }

    /** The agent id written in every frame header of this monitor's stream. */
    public UUID agentId() {
        return pipeline.agentId();
    }

    /** Drains all buffers, writes the trailer and closes the writer. Idempotent. */
    @Override
    public void close() {
        ObserveStartup.Started o = observe;
        if (o != null) o.service().close();
        PrometheusEndpoint p = prometheus;
        if (p != null) p.close();
        pipeline.close();
        Sonde.clearCurrent(this);
    }
}
