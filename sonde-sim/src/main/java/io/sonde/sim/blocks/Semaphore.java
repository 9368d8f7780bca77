package io.sonde.sim.blocks;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A counting semaphore with FIFO waiters: a resource limit such as the maximum number of threads
 * or TCP connections of a server (a limitation of DAPS). {@code acquire} takes a permit or blocks
 * until one is released; releases hand permits to waiters in order. Optionally records each
 * acquisition's waiting time.
 */
public final class Semaphore {
    private final Simulation sim;
    private final String name;
    private final ArrayDeque<SimThread> waiters = new ArrayDeque<>();
    private final ArrayDeque<Double> waitingSince = new ArrayDeque<>();
    private int available;
    private Tally waits;

    /** A semaphore with {@code permits} permits. */
    public Semaphore(Simulation sim, String name, int permits) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.name = Objects.requireNonNull(name, "name");
        if (permits < 0) {
            throw new IllegalArgumentException("semaphore " + name + ": permits must be >= 0, got " + permits);
        }
        this.available = permits;
    }

    /** Records every acquisition's waiting time in {@code tally}. */
    public Semaphore recordWaits(Tally tally) {
        this.waits = tally;
        return this;
    }

    /** The semaphore's name. */
    public String name() {
        return name;
    }

    /** Permits available now. */
    public int available() {
        return available;
    }

    /** Threads waiting for a permit. */
    public int waiting() {
        return waiters.size();
    }

    boolean acquire(SimThread t) {
        if (available > 0) {
            available--;
            if (waits != null) {
                waits.add(0);
            }
            return true;
        }
        waiters.addLast(t);
        waitingSince.addLast(sim.now());
        return false;
    }

    void release() {
        SimThread next = waiters.pollFirst();
        if (next == null) {
            available++;
            return;
        }
        double since = waitingSince.pollFirst();
        if (waits != null) {
            waits.add(sim.now() - since);
        }
        next.resume();
    }

    static final class Acquire extends Step {
        private final Semaphore semaphore;

        Acquire(Semaphore semaphore) {
            super("acquire " + semaphore.name());
            this.semaphore = semaphore;
        }

        @Override
        protected boolean execute(SimThread t) {
            return semaphore.acquire(t);
        }
    }

    static final class Release extends Step {
        private final Semaphore semaphore;

        Release(Semaphore semaphore) {
            super("release " + semaphore.name());
            this.semaphore = semaphore;
        }

        @Override
        protected boolean execute(SimThread t) {
            semaphore.release();
            return true;
        }
    }
}
