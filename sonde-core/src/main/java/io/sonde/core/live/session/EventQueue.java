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
 *
 * <p>The producer index and the consumer index sit on cache lines of their own (the padding
 * superclasses), and producers read the consumer index only when the queue looks half full by
 * their cached copy of it: an enqueue then touches no line the dispatcher writes but the slot's.
 */
final class EventQueue extends EventQueuePad2 {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle PRODUCER;
    private static final VarHandle CONSUMER;
    private static final VarHandle CONSUMER_CACHE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER = l.findVarHandle(EventQueueProducerIndex.class, "producerIndex", long.class);
            CONSUMER_CACHE = l.findVarHandle(EventQueueProducerIndex.class, "consumerCache", long.class);
            CONSUMER = l.findVarHandle(EventQueueConsumerIndex.class, "consumerIndex", long.class);
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

    /**
     * Enqueues; returns the queue's size after it (an upper bound; exact to within what the
     * consumer took since the last refresh, which happens whenever it reads half full or more), or
     * -1 when full (nothing stored).
     */
    int offer(LiveEvent event, Object tag) {
        long p;
        long c;
        do {
            p = (long) PRODUCER.getVolatile(this);
            // racy cache: any producer may store any value it read, all of them <= the real index,
            // so p - c only over-estimates the size
            c = (long) CONSUMER_CACHE.getOpaque(this);
            if (p - c >= capacity >> 1) {
                c = (long) CONSUMER.getVolatile(this);
                CONSUMER_CACHE.setOpaque(this, c);
                if (p - c >= capacity) return -1;
            }
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

/** Padding: keeps the producer's line apart from the object header and what precedes it. */
abstract class EventQueuePad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The producers' line: the index they CAS and their cached copy of the consumer's index. */
abstract class EventQueueProducerIndex extends EventQueuePad0 {
    volatile long producerIndex;
    /** A value {@link EventQueueConsumerIndex#consumerIndex} had (opaque access). */
    long consumerCache;
}

/** Padding between the producers' line and the consumer's. */
abstract class EventQueuePad1 extends EventQueueProducerIndex {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** The consumer's line: its index, written by the dispatcher only. */
abstract class EventQueueConsumerIndex extends EventQueuePad1 {
    volatile long consumerIndex;
}

/** Padding after the consumer's line (a subclass: the JVM lays out a class's fields in any order). */
abstract class EventQueuePad2 extends EventQueueConsumerIndex {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}
