package io.sonde.format.observe;

/**
 * One event as an observer receives it: kind, source id and path, the sensor's time (epoch ns of
 * the observed process's live clock), the new value (Long, Double, Boolean, String or null) for a
 * value change, the child for CHILD_ADDED / CHILD_REMOVED, the notification for NOTIFICATION.
 */
public record ObservedEvent(Kind kind, int sourceId, String path, long timeNanos, Object value, int childId,
        String childPath, ObservedNotification notification) {
    /** An event that is not a notification. */
    public ObservedEvent(Kind kind, int sourceId, String path, long timeNanos, Object value, int childId,
            String childPath) {
        this(kind, sourceId, path, timeNanos, value, childId, childPath, null);
    }

    /** Event kinds, in wire order (u8 0..4). */
    public enum Kind {
        VALUE_CHANGED,
        CHILD_ADDED,
        CHILD_REMOVED,
        OBJECT_DELETED,
        /** Since protocol version 2. */
        NOTIFICATION;

        public int bit() {
            return 1 << ordinal();
        }
    }
}
