package io.sonde.core.live;

import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.Observer;
import io.sonde.api.live.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** An observer that keeps every delivery, and the thread it ran on. */
public class Recorder implements Observer {
    /** One delivery. */
    public record Delivery(Subscription subscription, List<LiveEvent> events, Thread thread) {}

    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<long[]> overflows = new ArrayList<>();
    private CountDownLatch events = new CountDownLatch(0);

    @Override
    public synchronized void onEvents(Subscription subscription, List<LiveEvent> list) {
        deliveries.add(new Delivery(subscription, list, Thread.currentThread()));
        for (int i = 0; i < list.size(); i++) events.countDown();
    }

    @Override
    public synchronized void onOverflow(long lost, long lostTotal) {
        overflows.add(new long[] {lost, lostTotal});
    }

    public synchronized List<Delivery> deliveries() {
        return new ArrayList<>(deliveries);
    }

    public synchronized List<LiveEvent> events() {
        List<LiveEvent> all = new ArrayList<>();
        for (Delivery d : deliveries) all.addAll(d.events());
        return all;
    }

    public synchronized List<long[]> overflows() {
        return new ArrayList<>(overflows);
    }

    /** Arms a latch for the next {@code n} events. */
    public synchronized void expect(int n) {
        events = new CountDownLatch(n);
    }

    /** Waits (bounded) for the events armed by {@link #expect}; true if they came. */
    public boolean await() throws InterruptedException {
        CountDownLatch l;
        synchronized (this) {
            l = events;
        }
        return l.await(30, TimeUnit.SECONDS);
    }
}
