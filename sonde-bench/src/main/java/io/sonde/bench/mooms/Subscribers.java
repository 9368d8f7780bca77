package io.sonde.bench.mooms;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The readers of one configuration, in the harness's JVM: Sonde observers or JMX listeners, each on
 * its own connection to the server. Counts what each received and what each was told it lost.
 */
abstract class Subscribers implements AutoCloseable {
    /** Events (or notifications) each reader received. */
    final AtomicLong[] received;
    /** Events each reader was told were lost (Sonde OVERFLOW; JMX NOTIFS_LOST). */
    final AtomicLong[] lost;

    Subscribers(int count) {
        received = counters(count);
        lost = counters(count);
    }

    /** No readers (the un-instrumented and idle configurations). */
    static Subscribers none() {
        return new Subscribers(0) {
            @Override
            public void close() {}
        };
    }

    int count() {
        return received.length;
    }

    /** Whether every reader has received or been told it lost at least {@code expected} events. */
    boolean allAccountedFor(long expected) {
        for (int i = 0; i < count(); i++) {
            if (received[i].get() + lost[i].get() < expected) return false;
        }
        return true;
    }

    /** Sum of received and lost over all readers: progress, for the drain wait. */
    long progress() {
        long sum = 0;
        for (int i = 0; i < count(); i++) sum += received[i].get() + lost[i].get();
        return sum;
    }

    @Override
    public abstract void close();

    private static AtomicLong[] counters(int n) {
        AtomicLong[] a = new AtomicLong[n];
        for (int i = 0; i < n; i++) a[i] = new AtomicLong();
        return a;
    }
}
