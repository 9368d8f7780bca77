package io.sonde.api.live;

import java.util.Set;

/** A push subscription of a session: a path pattern, event kinds and its own QoS. */
public interface Subscription {
    /** Id unique within its session. */
    int id();

    /** The glob over source paths: {@code *} one segment (or part of one), {@code **} any number. */
    String pattern();

    Set<EventKind> kinds();

    Qos qos();

    /** Ends the subscription; sensors no other subscription wants turn their gate off. Idempotent. */
    void cancel();

    boolean isActive();
}
