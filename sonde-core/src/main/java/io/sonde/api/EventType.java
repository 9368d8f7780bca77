package io.sonde.api;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.probe.ProbeRuntime;
import io.sonde.core.probe.Probes;

/**
 * A custom event type, defined once with {@link Monitor#eventType}. Each {@link #begin()} starts one
 * event on the calling thread; see {@link EventWriter}. When the monitor is closed, or the type is
 * switched off, {@code begin()} returns a writer that ignores everything.
 */
public final class EventType {
    private final ProbeRuntime runtime;
    private final int id;
    private final String name;
    private final byte[] fieldTypes;
    private final int recordBytes;
    private volatile boolean enabled = true;

    EventType(ProbeRuntime runtime, int id, String name, byte[] fieldTypes, int recordBytes) {
        this.runtime = runtime;
        this.id = id;
        this.name = name;
        this.fieldTypes = fieldTypes;
        this.recordBytes = recordBytes;
    }

    /** Starts an event of this type on the calling thread, time-stamped now. */
    public EventWriter begin() {
        ProbeRuntime rt = runtime;
        if (!enabled || Probes.active() != rt) return ThreadEventWriter.DISCARD;
        ThreadBuffer b = rt.buffer();
        if (b == null) return ThreadEventWriter.DISCARD;
        ThreadEventWriter w = (ThreadEventWriter) b.attachment();
        if (w == null) {
            w = new ThreadEventWriter(b.events()); // once per thread
            b.attach(w);
        }
        return w.begin(id, fieldTypes, recordBytes, System.nanoTime());
    }

    /** Convenience for an event type without fields. */
    public void emit() {
        begin().end();
    }

    /** The event type's id in the stream's EVENT_DEF and EVENT records (1, 2, ...). */
    public int id() {
        return id;
    }

    /** The name it was defined with. */
    public String name() {
        return name;
    }

    /** Switches this event type on or off. */
    public void setEnabled(boolean on) {
        enabled = on;
    }

    /** Whether {@link #begin()} records (true until switched off). */
    public boolean isEnabled() {
        return enabled;
    }
}
