package io.sonde.sim.blocks;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * A mutual-exclusion lock with FIFO waiters and direct hand-off: unlocking gives the lock to the
 * longest-waiting thread (no barging). Not re-entrant. Optionally records the contention of
 * every acquisition (time from asking for the lock until getting it; 0 when it was free).
 *
 * <p>Serves both kinds of {@link SimThread}: a program's {@code lock} step waits and is resumed
 * by an event when the lock is handed over; a continuation-driven thread ({@link #lock(SimThread,
 * Runnable)}, a Java monitor of the middleware models) is woken with the CPU cost given by
 * {@link #wakeCost(DoubleSupplier)} and then runs its continuation.
 */
public final class Mutex {
    /** Marks a waiter that runs a program: it is resumed, not woken with a continuation. */
    private static final Runnable RESUME_PROGRAM = () -> { };

    private final Simulation sim;
    private final String name;
    private final ArrayDeque<SimThread> waiters = new ArrayDeque<>();
    private final ArrayDeque<Runnable> continuations = new ArrayDeque<>();
    private SimThread owner;
    private Tally contention;
    private DoubleSupplier wakeCost = () -> 0;
    private long acquisitions;
    private long contended;

    /** A free mutex. */
    public Mutex(Simulation sim, String name) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Records every acquisition's waiting time in {@code tally}. */
    public Mutex recordContention(Tally tally) {
        this.contention = tally;
        return this;
    }

    /**
     * The CPU (ms) a continuation-driven waiter pays when the lock is handed to it, asked at each
     * hand-over (default 0, i.e. the minimal burst).
     */
    public Mutex wakeCost(DoubleSupplier cost) {
        this.wakeCost = Objects.requireNonNull(cost, "cost");
        return this;
    }

    /** The mutex's name. */
    public String name() {
        return name;
    }

    /** The owning thread, or null. */
    public SimThread owner() {
        return owner;
    }

    /** Threads waiting for the lock. */
    public int waiting() {
        return waiters.size();
    }

    /** Total acquisitions. */
    public long acquisitions() {
        return acquisitions;
    }

    /** Acquisitions that had to wait. */
    public long contendedAcquisitions() {
        return contended;
    }

    /** Program style: locks for {@code t} if free (true), else enlists {@code t} as waiting (false). */
    boolean lock(SimThread t) {
        return acquire(t, RESUME_PROGRAM);
    }

    /**
     * Continuation style: {@code t} acquires the lock and runs {@code then}, at once if it is free,
     * else (blocked meanwhile) when it is handed over.
     */
    public void lock(SimThread t, Runnable then) {
        Objects.requireNonNull(then, "then");
        if (acquire(t, then)) {
            then.run();
        } else {
            t.block();
        }
    }

    private boolean acquire(SimThread t, Runnable continuation) {
        if (owner == t) {
            throw new IllegalStateException("thread " + t.name() + " locks mutex " + name + " it already holds (not re-entrant)");
        }
        if (owner == null) {
            owner = t;
            acquisitions++;
            if (contention != null) {
                contention.add(0);
            }
            return true;
        }
        t.waitSince = sim.now();
        waiters.addLast(t);
        continuations.addLast(continuation);
        return false;
    }

    /**
     * Unlocks; the first waiter, if any, becomes the owner and goes on (a program thread is
     * resumed, a continuation-driven one woken). Returns the number of threads still waiting.
     */
    public int unlock(SimThread t) {
        if (owner != t) {
            throw new IllegalStateException("thread " + t.name() + " unlocks mutex " + name + " held by "
                    + (owner == null ? "nobody" : owner.name()));
        }
        SimThread next = waiters.pollFirst();
        owner = next;
        if (next != null) {
            Runnable continuation = continuations.pollFirst();
            acquisitions++;
            contended++;
            if (contention != null) {
                contention.add(sim.now() - next.waitSince);
            }
            if (continuation == RESUME_PROGRAM) {
                next.resume();
            } else {
                next.wake(wakeCost.getAsDouble(), continuation);
            }
        }
        return waiters.size();
    }
}
