package io.sonde.core.live.session;

import io.sonde.api.live.LiveEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded multi-producer single-consumer queue of (event, tag) pairs, allocation-free: producers
 * (application threads) claim a slot by CAS on the producer index, store the tag plainly and the
 * event with a release store; the consumer (the session's dispatcher) reads the event with an
 * acquire load, clears the slot and publishes its index with a release store, which is what
 * producers compare against to see free space. A claimed slot whose event is not stored yet reads
 * null: the consumer stops there and comes back (the queue is not empty by index).
 */
final class EventQueue {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle PRODUCER;
    private static final VarHandle CONSUMER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER = l.findVarHandle(EventQueue.class, "producerIndex", long.class);
            CONSUMER = l.findVarHandle(EventQueue.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Handles one dequeued pair. */
    interface Handler {
        void accept(LiveEvent event, Object tag);
    }

    /** Two slots per entry: [2i] the event, [2i+1] its tag. */
    private final Object[] slots;
    private final int capacity;
    private final int mask;
    @SuppressWarnings("unused") // through PRODUCER
    private volatile long producerIndex;
    @SuppressWarnings("unused") // through CONSUMER
    private volatile long consumerIndex;

    /** {@code capacity} is rounded up to a power of two. */
    EventQueue(int capacity) {
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("queue capacity: " + capacity + " is outside 1.." + (1 << 24));
        }
        int cap = 1;
        while (cap < capacity) cap <<= 1;
        this.capacity = cap;
        this.mask = this.capacity - 1;
        this.slots = new Object[this.capacity * 2];
    }

    int capacity() {
        return capacity;
    }

    /** Enqueues; returns the queue's size after it (an upper bound), or -1 when full (nothing stored). */
    int offer(LiveEvent event, Object tag) {
        long p;
        long c;
        do {
            p = (long) PRODUCER.getVolatile(this);
            c = (long) CONSUMER.getVolatile(this);
            if (p - c >= capacity) return -1;
        } while (!PRODUCER.compareAndSet(this, p, p + 1));
        int i = ((int) p & mask) << 1;
        SLOT.set(slots, i + 1, tag);
        SLOT.setRelease(slots, i, event); // publishes the tag too
        return (int) (p + 1 - c);
    }

    /** Consumer only: hands up to {@code max} pairs to {@code h}, oldest first; returns how many. */
    int drain(Handler h, int max) {
        long c = (long) CONSUMER.getOpaque(this);
        int n = 0;
        while (n < max) {
            int i = ((int) c & mask) << 1;
            Object e = SLOT.getAcquire(slots, i);
            if (e == null) break; // empty, or claimed and not yet stored
            Object tag = slots[i + 1];
            slots[i + 1] = null;
            SLOT.set(slots, i, null);
            CONSUMER.setRelease(this, ++c); // the slot is free for producers from here on
            n++;
            h.accept((LiveEvent) e, tag);
        }
        return n;
    }

    boolean isEmpty() {
        return (long) CONSUMER.getVolatile(this) == (long) PRODUCER.getVolatile(this);
    }

    int size() {
        return (int) ((long) PRODUCER.getVolatile(this) - (long) CONSUMER.getVolatile(this));
    }
}
