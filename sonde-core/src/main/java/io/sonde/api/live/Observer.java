package io.sonde.api.live;

import java.util.List;

/**
 * The client side of a session (MOOMS's Observer): receives deliveries on the session's dispatcher
 * thread, never on an application thread. A slow observer delays only its own session.
 */
public interface Observer {
    /**
     * One delivery of {@code subscription}: one event (immediate), a batch, or a period's events,
     * oldest first (in order per sensor). The list and its events are shared: do not modify.
     */
    void onEvents(Subscription subscription, List<LiveEvent> events);

    /**
     * Events of this session were lost because its queue was full: {@code lost} since the last
     * report, {@code lostTotal} since the session opened. Called before the next delivery.
     */
    default void onOverflow(long lost, long lostTotal) {}
}
