package io.sonde.core.buffer;

/**
 * What a ring needs from the pipeline that drains it: a way to wake the writer thread and to learn
 * that the pipeline is closed (a producer then drops instead of waiting for space).
 */
public interface RingHost {
    /** Wakes the writer thread (called at most once per half-full crossing, and while blocked). */
    void wakeWriter();

    /** True once the pipeline is closing; producers whose ring is full then drop with reason closed. */
    boolean isClosed();

    /**
     * A fresh buffer ordinal (slow path): a thread whose 32-bit trace counter is exhausted takes a
     * new ordinal so its trace ids stay unique.
     */
    int nextOrdinal();
}
