package io.sonde.api.live;

import java.util.Objects;
import java.util.function.Function;

/**
 * One event report of a sensor, immutable. A sensor creates it once; every subscription that
 * receives it gets the same instance (never a copy per observer).
 *
 * <p>For {@link EventKind#VALUE_CHANGED} the source is the attribute and the event carries its new
 * value; for the object events the source is the object, and {@link EventKind#CHILD_ADDED} /
 * {@link EventKind#CHILD_REMOVED} name the child, and {@link EventKind#NOTIFICATION} carries its
 * {@link Notification}.
 */
public final class LiveEvent {
    private final EventKind kind;
    private final int sourceId;
    private final String sourcePath;
    private final long timeNanos;
    private final ValueType valueType;
    private final long bits;
    private final String text;
    private final int childId;
    private final String childPath;
    private final Notification notification;
    /**
     * The encoded form, made once (under this event's lock) by the first dispatcher that needs it;
     * volatile so that the other dispatchers read it without taking the lock (several sessions'
     * dispatchers reach the same event at nearly the same time: a contended lock would inflate).
     */
    private volatile byte[] wire;

    private LiveEvent(EventKind kind, int sourceId, String sourcePath, long timeNanos, ValueType valueType,
            long bits, String text, int childId, String childPath, Notification notification) {
        this.kind = kind;
        this.sourceId = sourceId;
        this.sourcePath = sourcePath;
        this.timeNanos = timeNanos;
        this.valueType = valueType;
        this.bits = bits;
        this.text = text;
        this.childId = childId;
        this.childPath = childPath;
        this.notification = notification;
    }

    /**
     * A value change of attribute {@code attributeId} at {@code path}; {@code bits} holds a long,
     * a double's raw bits or 0/1 for a boolean, {@code text} a string value.
     */
    public static LiveEvent valueChanged(int attributeId, String path, long timeNanos, ValueType type, long bits,
            String text) {
        return new LiveEvent(EventKind.VALUE_CHANGED, attributeId, path, timeNanos, Objects.requireNonNull(type),
                bits, text, 0, null, null);
    }

    /** A child added to or removed from object {@code objectId}, or ({@code child} unused) the object deleted. */
    public static LiveEvent objectEvent(EventKind kind, int objectId, String path, long timeNanos, int childId,
            String childPath) {
        if (kind == EventKind.VALUE_CHANGED || kind == EventKind.NOTIFICATION) {
            throw new IllegalArgumentException("objectEvent: " + kind + " is not a child or deletion event");
        }
        return new LiveEvent(kind, objectId, path, timeNanos, null, 0L, null, childId, childPath, null);
    }

    /** A notification sent by object {@code objectId}. */
    public static LiveEvent notification(int objectId, String path, long timeNanos, Notification notification) {
        return new LiveEvent(EventKind.NOTIFICATION, objectId, path, timeNanos, null, 0L, null, 0, null,
                Objects.requireNonNull(notification, "notification"));
    }

    public EventKind kind() {
        return kind;
    }

    /** The id of the source: the attribute's for a value change, else the object's. */
    public int sourceId() {
        return sourceId;
    }

    /** The path of the source ({@code shop/orders/4711/state}, {@code shop/orders}). */
    public String sourcePath() {
        return sourcePath;
    }

    /** When the sensor generated the event: epoch nanoseconds of the live layer's clock. */
    public long timeNanos() {
        return timeNanos;
    }

    /** The value's type, or null for an object event. */
    public ValueType valueType() {
        return valueType;
    }

    /** The new value of a LONG attribute. */
    public long longValue() {
        requireType(ValueType.LONG);
        return bits;
    }

    /** The new value of a DOUBLE attribute. */
    public double doubleValue() {
        requireType(ValueType.DOUBLE);
        return Double.longBitsToDouble(bits);
    }

    /** The new value of a BOOLEAN attribute. */
    public boolean booleanValue() {
        requireType(ValueType.BOOLEAN);
        return bits != 0;
    }

    /** The new value of a STRING attribute (may be null). */
    public String stringValue() {
        requireType(ValueType.STRING);
        return text;
    }

    /** The new value boxed (Long, Double, Boolean, String), or null for an object event. */
    public Object value() {
        if (valueType == null) return null;
        switch (valueType) {
            case LONG: return bits;
            case DOUBLE: return Double.longBitsToDouble(bits);
            case BOOLEAN: return bits != 0;
            default: return text;
        }
    }

    /** The child's id for CHILD_ADDED / CHILD_REMOVED, else 0. */
    public int childId() {
        return childId;
    }

    /** The child's path for CHILD_ADDED / CHILD_REMOVED, else null. */
    public String childPath() {
        return childPath;
    }

    /** The notification of a NOTIFICATION event, else null. */
    public Notification notification() {
        return notification;
    }

    /**
     * This event's bytes in the observe protocol, made by {@code encoder} once and cached: every
     * connection that receives the event writes the same array (do not modify it). Called on
     * dispatcher threads only, never on the sensor's path.
     */
    public byte[] wireBytes(Function<LiveEvent, byte[]> encoder) {
        byte[] w = wire;
        if (w != null) return w;
        synchronized (this) {
            if (wire == null) wire = encoder.apply(this);
            return wire;
        }
    }

    private void requireType(ValueType t) {
        if (valueType != t) {
            throw new IllegalStateException("event of " + sourcePath + " carries " + (valueType == null ? "no value ("
                    + kind + ")" : "a " + valueType + " value") + ", not " + t);
        }
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder().append(kind).append(' ').append(sourcePath).append(" @").append(timeNanos);
        if (valueType != null) b.append(" = ").append(value());
        if (childPath != null) b.append(" child ").append(childPath);
        if (notification != null) b.append(' ').append(notification);
        return b.toString();
    }
}
