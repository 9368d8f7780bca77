package io.sonde.api.live;

/**
 * A long attribute the application writes through. With no subscriber, or suspended, a
 * {@link #set} costs a plain field write and one flag read; otherwise each change of the value
 * (and only a change) is one {@link EventKind#VALUE_CHANGED} event.
 */
public interface LongSensor extends Attribute {
    /** Sets the value; an event only if it differs from the current one. */
    void set(long value);

    /** Adds atomically (safe from several threads; costs an atomic add even when idle). */
    void add(long delta);

    long get();
}
