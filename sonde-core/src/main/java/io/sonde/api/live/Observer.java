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

    /**
     * Sends what this observer has buffered from earlier deliveries, if it buffers (a network
     * connection writes deliveries into a buffer and sends them here, so deliveries made one after
     * the other leave in one write). The session calls it on its dispatcher thread when it has made
     * every delivery that is due and is about to wait, and at least every
     * {@value #FLUSH_EVERY} deliveries while it keeps delivering; so buffering delays no delivery
     * beyond the dispatcher's current pass, and QoS bounds (immediate, flush timeout, period) hold.
     */
    default void flush() {}

    /** Deliveries after which the session calls {@link #flush()} at the latest, however busy it is. */
    int FLUSH_EVERY = 64;
}
