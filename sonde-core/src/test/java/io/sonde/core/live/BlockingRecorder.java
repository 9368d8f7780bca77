package io.sonde.core.live;

import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.Subscription;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A recorder whose callback blocks (at most 60 s) until {@link #release}: a stalled observer. */
class BlockingRecorder extends Recorder {
    /** Counted down when the first callback has started to block. */
    final CountDownLatch blocked = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    public void onEvents(Subscription sub, List<LiveEvent> events) {
        blocked.countDown();
        try {
            release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        super.onEvents(sub, events);
    }

    void release() {
        release.countDown();
    }
}
