package io.sonde.api.live;

import java.util.List;
import java.util.Set;

/**
 * One observer's end-point in the monitored process (MOOMS's subscription end-point): its
 * subscriptions, its bounded queue and its dispatcher. Later one per network connection.
 */
public interface ObserverSession extends AutoCloseable {
    /**
     * Subscribes to events of {@code kinds} whose source path matches {@code pattern}, delivered
     * with {@code qos}. Turns on the gates of matching sensors, also of those created later.
     */
    Subscription subscribe(String pattern, Set<EventKind> kinds, Qos qos);

    /** All kinds. */
    default Subscription subscribe(String pattern, Qos qos) {
        return subscribe(pattern, EventKind.all(), qos);
    }

    /** The active subscriptions. */
    List<Subscription> subscriptions();

    /** Events lost to a full queue since the session opened. */
    long overflowCount();

    /** Queue capacity (events per priority). */
    int capacity();

    /** Cancels every subscription and stops the dispatcher; undelivered events are dropped. */
    @Override
    void close();
}
