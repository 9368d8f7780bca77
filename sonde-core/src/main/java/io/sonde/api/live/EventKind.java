package io.sonde.api.live;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a live event reports (MOOMS section 3.2): a value change of an attribute, or a change of
 * the tree at a monitored object. The source of a {@link #VALUE_CHANGED} event is the attribute
 * (path {@code object/attribute}); the source of the others is the object.
 */
public enum EventKind {
    /** An attribute sensor's value changed (value-sensitive: only a different value is an event). */
    VALUE_CHANGED,
    /** A child object was added to the source object. */
    CHILD_ADDED,
    /** A child object was removed from the source object. */
    CHILD_REMOVED,
    /** The source object was deleted (removed from the tree with its subtree). */
    OBJECT_DELETED,
    /**
     * The source object sent a notification ({@link MonitoredObject#sendNotification}; for a
     * bridged MBean, a JMX notification it emitted): see {@link LiveEvent#notification()}.
     */
    NOTIFICATION;

    /** This kind's bit in a mask of kinds. */
    public int bit() {
        return 1 << ordinal();
    }

    /** The mask of the given kinds (an empty set is an error: a subscription must want something). */
    public static int mask(Set<EventKind> kinds) {
        if (kinds.isEmpty()) throw new IllegalArgumentException("event kinds: the set is empty; name at least one kind");
        int m = 0;
        for (EventKind k : kinds) m |= k.bit();
        return m;
    }

    /** The kinds of a mask. */
    public static Set<EventKind> of(int mask) {
        EnumSet<EventKind> s = EnumSet.noneOf(EventKind.class);
        for (EventKind k : values()) if ((mask & k.bit()) != 0) s.add(k);
        return s;
    }

    /** All kinds. */
    public static Set<EventKind> all() {
        return EnumSet.allOf(EventKind.class);
    }
}
