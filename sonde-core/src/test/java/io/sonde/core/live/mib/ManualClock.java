package io.sonde.core.live.mib;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves. */
public final class ManualClock implements LiveClock {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Override
    public long nanos() {
        return now.get();
    }

    public void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }
}
