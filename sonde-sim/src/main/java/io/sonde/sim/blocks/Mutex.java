package io.sonde.sim.blocks;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A mutual-exclusion lock with FIFO waiters and direct hand-off: unlocking gives the lock to the
 * longest-waiting thread (no barging). Not re-entrant. Optionally records the contention of
 * every acquisition (time from asking for the lock until getting it; 0 when it was free).
 */
public final class Mutex {
    private final Simulation sim;
    private final String name;
    private final ArrayDeque<SimThread> waiters = new ArrayDeque<>();
    private SimThread owner;
    private Tally contention;
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

    /** Locks for {@code t} if free (true), else enlists {@code t} as waiting (false). */
    boolean lock(SimThread t) {
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
        return false;
    }

    /** Unlocks; the first waiter, if any, becomes the owner and resumes. */
    void unlock(SimThread t) {
        if (owner != t) {
            throw new IllegalStateException("thread " + t.name() + " unlocks mutex " + name + " held by "
                    + (owner == null ? "nobody" : owner.name()));
        }
        SimThread next = waiters.pollFirst();
        owner = next;
        if (next != null) {
            acquisitions++;
            contended++;
            if (contention != null) {
                contention.add(sim.now() - next.waitSince);
            }
            next.resume();
        }
    }
}
