package io.sonde.sim.engine;

/**
 * Something that happens at a point in simulated time. An event object is reusable: it is either
 * scheduled once (in the event list) or not scheduled; scheduling it again moves it. Entities
 * own their events (a thread owns its wake-up event, a CPU its completion event), so the hot path
 * allocates nothing. For rare one-off actions {@link Simulation#after(double, Runnable)} is
 * handier.
 */
public abstract class Event {
    /** Position in the event list's heap, or -1 when not scheduled (maintained by EventList). */
    int heapIndex = -1;
    /** The time it is scheduled for (valid while scheduled). */
    double time;

    /** Runs the event; the simulation clock already shows its time. */
    protected abstract void fire();

    /** Whether the event is currently in the event list. */
    public final boolean isScheduled() {
        return heapIndex >= 0;
    }

    /** The time the event is scheduled for; meaningful only while {@link #isScheduled()}. */
    public final double scheduledTime() {
        return time;
    }
}
