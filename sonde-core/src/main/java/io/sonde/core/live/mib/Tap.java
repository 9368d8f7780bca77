package io.sonde.core.live.mib;

import io.sonde.api.live.LiveEvent;

/**
 * What a sensor sees of a subscription: the sources it selects, the kinds it wants, and where an
 * event goes. {@link #offer} runs on the application thread: it must only enqueue a reference.
 */
public interface Tap {
    PathPattern selector();

    /** Mask of {@link io.sonde.api.live.EventKind#bit()}s. */
    int kindMask();

    void offer(LiveEvent event);
}
