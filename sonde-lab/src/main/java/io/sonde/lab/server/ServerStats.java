package io.sonde.lab.server;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a running {@link LabServer} did, kept so tests can check that each strategy behaves as
 * specified: how many servant calls ran at once at most, and how many threads of each role were
 * started. A few atomic operations per request: negligible next to a socket round trip.
 */
public final class ServerStats {
    private final AtomicInteger inServant = new AtomicInteger();
    private final AtomicInteger maxInServant = new AtomicInteger();
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong receiverThreads = new AtomicLong();
    private final AtomicLong dispatcherThreads = new AtomicLong();
    private final AtomicLong poolThreads = new AtomicLong();

    void enterServant() {
        int n = inServant.incrementAndGet();
        maxInServant.accumulateAndGet(n, Math::max);
    }

    void exitServant() {
        inServant.decrementAndGet();
        served.incrementAndGet();
    }

    void receiverStarted() {
        receiverThreads.incrementAndGet();
    }

    void dispatcherStarted() {
        dispatcherThreads.incrementAndGet();
    }

    void poolThreadStarted() {
        poolThreads.incrementAndGet();
    }

    /** The most servant calls that ran at the same time. */
    public int maxConcurrentServants() {
        return maxInServant.get();
    }

    /** Servant calls completed. */
    public long servantCalls() {
        return served.get();
    }

    /** Receiver threads started (one per accepted connection). */
    public long receiverThreads() {
        return receiverThreads.get();
    }

    /** Dispatcher threads started by thread-per-request (one per request). */
    public long dispatcherThreads() {
        return dispatcherThreads.get();
    }

    /** Pool threads started by thread-pool (the pool size). */
    public long poolThreads() {
        return poolThreads.get();
    }
}
