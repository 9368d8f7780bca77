package io.sonde.sim.blocks;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Tally;
import io.sonde.sim.stats.TimeWeighted;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A FIFO queue of requests in front of one thread (private queue, e.g. a connection's receiver)
 * or several (shared queue, e.g. a thread pool). Threads take requests with a blocking get
 * ({@code Program.Builder.get}); waiting threads are served in the order they started waiting,
 * and a request put while a thread waits goes straight to that thread.
 *
 * <p>Optional statistics: the waiting time of each request (from {@link #accept} until a thread
 * takes it, 0 when a thread was waiting) and the time-averaged number of queued requests.
 */
public final class RequestQueue implements RequestSink {
    private final Simulation sim;
    private final String name;
    private final ArrayDeque<Request> items = new ArrayDeque<>();
    private final ArrayDeque<SimThread> waiters = new ArrayDeque<>();
    private Tally waitingTimes;
    private TimeWeighted length;
    private long accepted;

    /** An empty queue. */
    public RequestQueue(Simulation sim, String name) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.name = Objects.requireNonNull(name, "name");
    }

    /** Records every request's waiting time in {@code tally}. */
    public RequestQueue recordWaitingTimes(Tally tally) {
        this.waitingTimes = tally;
        return this;
    }

    /** Records the number of queued requests over time in {@code timeWeighted}. */
    public RequestQueue recordLength(TimeWeighted timeWeighted) {
        this.length = timeWeighted;
        if (timeWeighted != null) {
            timeWeighted.set(items.size());
        }
        return this;
    }

    /** The queue's name. */
    public String name() {
        return name;
    }

    /** Requests waiting in the queue. */
    public int size() {
        return items.size();
    }

    /** Threads blocked waiting for a request. */
    public int waitingThreads() {
        return waiters.size();
    }

    /** Requests accepted so far. */
    public long accepted() {
        return accepted;
    }

    @Override
    public void accept(Request r) {
        Objects.requireNonNull(r, "request");
        accepted++;
        r.setEnqueuedAt(sim.now());
        SimThread t = waiters.pollFirst();
        if (t != null) {
            if (waitingTimes != null) {
                waitingTimes.add(0);
            }
            t.deliver(r);
            return;
        }
        items.addLast(r);
        if (length != null) {
            length.set(items.size());
        }
    }

    /**
     * Takes the first request, or, if there is none, enlists {@code t} as waiting (it will receive
     * the next request through {@code deliver}) and returns null.
     */
    Request take(SimThread t) {
        Request r = items.pollFirst();
        if (r == null) {
            waiters.addLast(t);
            return null;
        }
        if (length != null) {
            length.set(items.size());
        }
        if (waitingTimes != null) {
            waitingTimes.add(sim.now() - r.enqueuedAt());
        }
        return r;
    }
}
