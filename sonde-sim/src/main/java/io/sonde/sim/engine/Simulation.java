package io.sonde.sim.engine;

import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.RandomStream;
import io.sonde.sim.random.Sampler;
import io.sonde.sim.stats.Clock;
import java.util.Objects;

/**
 * One replication of a discrete-event simulation: the clock, the event list and the random
 * streams. Single-threaded by design; independent replications run in parallel through
 * {@link Experiment}, each with its own {@code Simulation}.
 *
 * <p><b>Time unit:</b> simulated time is a {@code double} number of <b>milliseconds</b> since the
 * start of the replication (0). Doubles keep about 15 significant digits, so sub-nanosecond
 * resolution holds for runs of many simulated days. Events at equal times fire in the order they
 * were scheduled.
 *
 * <p><b>Determinism:</b> a run depends only on (seed, replication index) and the model; nothing
 * here reads the wall clock or iterates a hash-ordered collection.
 */
public final class Simulation implements Clock {
    private final EventList events = new EventList();
    private final long seed;
    private final int replication;
    private double now;
    private long eventCount;
    private boolean stopped;
    private long nextId;

    /** A simulation for replication {@code replication} of the experiment with seed {@code seed}. */
    public Simulation(long seed, int replication) {
        if (replication < 0) {
            throw new IllegalArgumentException("replication index must be >= 0, got " + replication);
        }
        this.seed = seed;
        this.replication = replication;
    }

    /** Current simulated time in milliseconds. */
    @Override
    public double now() {
        return now;
    }

    /** The experiment seed. */
    public long seed() {
        return seed;
    }

    /** The replication index (0-based). */
    public int replication() {
        return replication;
    }

    /** Number of events fired so far. */
    public long eventCount() {
        return eventCount;
    }

    /** Number of events currently scheduled. */
    public int pendingEvents() {
        return events.size();
    }

    /** A fresh id, unique within this replication (used for requests and threads). */
    public long nextId() {
        return nextId++;
    }

    /**
     * The random stream named {@code name} of this replication. Calling it twice with the same name
     * gives two streams producing the same numbers, so create each stream once per purpose.
     */
    public RandomStream stream(String name) {
        return RandomStream.derive(seed, replication, Objects.requireNonNull(name, "name"));
    }

    /** {@code distribution} bound to a fresh stream named {@code streamName}. */
    public Sampler sampler(String streamName, Distribution distribution) {
        return new Sampler(distribution, stream(streamName));
    }

    /** Schedules (or moves) {@code e} to fire {@code delay} ms from now. */
    public void schedule(Event e, double delay) {
        if (!(delay >= 0)) {
            throw new IllegalArgumentException("delay must be >= 0, got " + delay);
        }
        events.schedule(e, now + delay);
    }

    /** Schedules (or moves) {@code e} to fire at absolute time {@code time} (not in the past). */
    public void scheduleAt(Event e, double time) {
        if (!(time >= now)) {
            throw new IllegalArgumentException("time " + time + " is before now " + now);
        }
        events.schedule(e, time);
    }

    /** Removes {@code e} from the event list if it is scheduled. */
    public void cancel(Event e) {
        events.cancel(e);
    }

    /** Runs {@code action} {@code delay} ms from now (allocates; for rare, one-off actions). */
    public Event after(double delay, Runnable action) {
        Objects.requireNonNull(action, "action");
        Event e = new Event() {
            @Override
            protected void fire() {
                action.run();
            }
        };
        schedule(e, delay);
        return e;
    }

    /** Makes {@link #run} return after the current event. */
    public void stop() {
        stopped = true;
    }

    /** Whether {@link #stop()} was called. */
    public boolean isStopped() {
        return stopped;
    }

    /**
     * Fires events in time order until {@link #stop()} is called, no event is left, or the next
     * event lies after {@code until}; in the last case the clock is advanced to {@code until}
     * (so time-weighted measures cover the whole horizon). Pass
     * {@link Double#POSITIVE_INFINITY} to run until stopped or out of events.
     *
     * @return the number of events fired by this call
     */
    public long run(double until) {
        long before = eventCount;
        stopped = false;
        final EventList list = events;
        while (!stopped && !list.isEmpty()) {
            double t = list.peekTime();
            if (t > until) {
                break;
            }
            Event e = list.poll();
            now = t;
            eventCount++;
            e.fire();
        }
        if (!stopped && until != Double.POSITIVE_INFINITY && now < until) {
            now = until;
        }
        return eventCount - before;
    }

    /** Fires the single next event; returns false when there is none. */
    public boolean step() {
        if (events.isEmpty()) {
            return false;
        }
        double t = events.peekTime();
        Event e = events.poll();
        now = t;
        eventCount++;
        e.fire();
        return true;
    }
}
