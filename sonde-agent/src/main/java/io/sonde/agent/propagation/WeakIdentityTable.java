package io.sonde.agent.propagation;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hand-offs kept beside objects that cannot carry them (a started thread, a fork-join task whose
 * identity must not change): keyed by identity, weakly, so an entry never keeps its object alive
 * and an object that never runs (a cancelled task) costs nothing once collected.
 */
final class WeakIdentityTable {

    private final ConcurrentHashMap<Key, Handoff> entries = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

    void put(Object owner, Handoff handoff) {
        for (Object k; (k = collected.poll()) != null; ) {
            entries.remove(k);
        }
        entries.put(new Key(owner, collected), handoff);
    }

    /** Removes and returns the owner's hand-off; when the table is empty, no allocation. */
    Handoff remove(Object owner) {
        return entries.isEmpty() ? null : entries.remove(new Key(owner, null));
    }

    /** A weak reference equal to another one to the same object (identity). */
    private static final class Key extends WeakReference<Object> {
        private final int hash;

        Key(Object owner, ReferenceQueue<Object> queue) {
            super(owner, queue);
            this.hash = System.identityHashCode(owner);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            Object mine = get();
            return mine != null && o instanceof Key && ((Key) o).get() == mine;
        }
    }
}
