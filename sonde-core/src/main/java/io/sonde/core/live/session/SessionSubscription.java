package io.sonde.core.live.session;

import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.Qos;
import io.sonde.api.live.Subscription;
import io.sonde.core.live.mib.PathPattern;
import io.sonde.core.live.mib.Tap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subscription of a session: the tap its sensors offer events to, and (dispatcher thread only)
 * the staging of its next delivery.
 */
final class SessionSubscription implements Subscription, Tap {
    final ObserverEndpoint session;
    private final int id;
    private final PathPattern pattern;
    private final int kinds;
    final Qos qos;
    private volatile boolean active = true;
    /**
     * BATCH only: events enqueued and not yet delivered. A producer wakes the dispatcher when a
     * batch starts (so it arms the flush timer) and when it is full; every other event of a batch
     * costs no wake-up.
     */
    private final AtomicInteger pending = new AtomicInteger();

    // ---- dispatcher thread only ----
    List<LiveEvent> staged = new ArrayList<>();
    /** PERIODIC_LATEST: attribute id -> its event's index in {@link #staged}. */
    final Map<Integer, Integer> latest = new HashMap<>();
    /** BATCH: when the staged batch must go (oldest event + flush); PERIODIC: next period end. */
    long deadline;

    SessionSubscription(ObserverEndpoint session, int id, PathPattern pattern, int kinds, Qos qos, long now) {
        this.session = session;
        this.id = id;
        this.pattern = pattern;
        this.kinds = kinds;
        this.qos = qos;
        boolean periodic = qos.mode() == Qos.Mode.PERIODIC || qos.mode() == Qos.Mode.PERIODIC_LATEST;
        this.deadline = periodic ? now + qos.intervalNanos() : Long.MAX_VALUE;
    }

    @Override
    public void offer(LiveEvent event) {
        session.enqueue(event, this);
    }

    /** After a successful enqueue: whether the dispatcher must act now rather than at its next deadline. */
    boolean wakeOnOffer() {
        switch (qos.mode()) {
            case IMMEDIATE:
                return true;
            case BATCH:
                int p = pending.incrementAndGet();
                return p == 1 || p >= qos.batchSize() || qos.isUrgent();
            default:
                return qos.isUrgent();
        }
    }

    void delivered(int n) {
        if (qos.mode() == Qos.Mode.BATCH) pending.addAndGet(-n);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public PathPattern selector() {
        return pattern;
    }

    @Override
    public int kindMask() {
        return kinds;
    }

    @Override
    public String pattern() {
        return pattern.text();
    }

    @Override
    public Set<EventKind> kinds() {
        return EventKind.of(kinds);
    }

    @Override
    public Qos qos() {
        return qos;
    }

    @Override
    public void cancel() {
        session.cancel(this);
    }

    void deactivate() {
        active = false;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public String toString() {
        return "subscription " + id + " " + pattern + " " + EventKind.of(kinds) + " " + qos;
    }
}
