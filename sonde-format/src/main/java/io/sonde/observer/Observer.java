package io.sonde.observer;

import io.sonde.format.observe.ObservedEvent;
import java.util.List;

/** Receives what an observe endpoint pushes, on the client's reader thread, in arrival order. */
public interface Observer {
    /** One delivery of subscription {@code subscription} (one event, a batch or a period), oldest first. */
    void onEvents(int subscription, List<ObservedEvent> events);

    /** The endpoint dropped events of this connection because its queue was full. */
    default void onOverflow(long lost, long lostTotal) {}

    /**
     * Another connection ended this connection's subscription {@code subscription} (END_SUBSCRIPTION;
     * {@code byConnection} is its id): no more deliveries of it come.
     */
    default void onSubscriptionEnded(int subscription, int byConnection, String reason) {}

    /** The connection ended: {@code cause} is null after {@link ObserverClient#close()}, else the failure. */
    default void onClosed(Throwable cause) {}
}
