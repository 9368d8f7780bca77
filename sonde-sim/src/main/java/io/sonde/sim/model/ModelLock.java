package io.sonde.sim.model;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.function.DoubleSupplier;

/**
 * A Java monitor as the middleware models need it: FIFO hand-over to the longest waiter, the waiter
 * pays a wake-up cost, and the time from asking to owning can be tallied (mutex contention).
 */
final class ModelLock {
    private final Simulation sim;
    private final DoubleSupplier wakeCost;
    private Tally contention;
    private Worker owner;
    private final ArrayDeque<Worker> waiters = new ArrayDeque<>();
    private final ArrayDeque<Runnable> conts = new ArrayDeque<>();
    private final ArrayDeque<Double> since = new ArrayDeque<>();

    ModelLock(Simulation sim, DoubleSupplier wakeCost) {
        this.sim = sim;
        this.wakeCost = wakeCost;
    }

    /** Records the time from asking to owning of every acquisition into {@code t}. */
    ModelLock recordContention(Tally t) {
        this.contention = t;
        return this;
    }

    /** The owner, or null. */
    Worker owner() {
        return owner;
    }

    /** Threads waiting. */
    int waiting() {
        return waiters.size();
    }

    /** {@code w} acquires the lock and then runs {@code then} (at once, or when handed over). */
    void lock(Worker w, Runnable then) {
        if (owner == null) {
            owner = w;
            if (contention != null) {
                contention.add(0);
            }
            then.run();
            return;
        }
        if (owner == w) {
            throw new IllegalStateException(w.name() + " already owns the lock");
        }
        waiters.add(w);
        conts.add(then);
        since.add(sim.now());
        w.block();
    }

    /**
     * {@code w} releases the lock; the longest waiter (if any) becomes the owner and is woken.
     * Returns the number of threads still waiting after the hand-over.
     */
    int unlock(Worker w) {
        if (owner != w) {
            throw new IllegalStateException(w.name() + " releases a lock it does not own");
        }
        Worker next = waiters.poll();
        if (next == null) {
            owner = null;
            return 0;
        }
        Runnable cont = conts.poll();
        double t = since.poll();
        if (contention != null) {
            contention.add(sim.now() - t);
        }
        owner = next;
        next.wake(wakeCost.getAsDouble(), cont);
        return waiters.size();
    }
}
