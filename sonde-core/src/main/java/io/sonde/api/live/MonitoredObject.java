package io.sonde.api.live;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A node of the monitored-object tree: a path, a type name, attributes and children
 * (containment). Created and deleted by the application at run time; safe for concurrent use.
 *
 * <p>Names are non-empty and contain none of {@code / * ? #} and no whitespace; a name is unique
 * among an object's children and attributes together, so a path names one object or one attribute.
 */
public interface MonitoredObject {
    /** Stable id, unique in the tree for the object's life (never reused); the root's is 0. */
    int id();

    /** The last segment of the path ({@code ""} for the root). */
    String name();

    /** Slash-separated path from the root ({@code shop/orders/4711}; {@code ""} for the root). */
    String path();

    /** The type name given at creation ({@code "Order"}). */
    String type();

    /** The parent, or null for the root. */
    MonitoredObject parent();

    /** A snapshot of the children, in creation order. */
    List<MonitoredObject> children();

    /** The child of that name, if any. */
    Optional<MonitoredObject> child(String name);

    /** A snapshot of the attributes, in creation order. */
    List<Attribute> attributes();

    /** The attribute of that name, if any. */
    Optional<Attribute> attribute(String name);

    /**
     * Creates a child object (a CHILD_ADDED event here). Fails if the name is taken by a child or
     * an attribute, or this object was deleted.
     */
    MonitoredObject createChild(String name, String type);

    /** The child of that name, created with {@code type} if absent (an existing child keeps its type). */
    MonitoredObject getOrCreateChild(String name, String type);

    /**
     * Deletes this object and its subtree: OBJECT_DELETED events for each deleted object, then a
     * CHILD_REMOVED at the parent. Its sensors stay usable but generate nothing. The root cannot
     * be deleted. Deleting twice is a no-op.
     */
    void delete();

    /** Whether {@link #delete()} removed this object (or an ancestor) from the tree. */
    boolean isDeleted();

    /**
     * Sends a {@link EventKind#NOTIFICATION} event from this object (as a JMX MBean sends a
     * notification) to the subscriptions that want notifications of it; with none, or suspended,
     * nothing is generated. {@code userData} may be null.
     */
    void sendNotification(String type, String message, long sequence, String userData);

    LongSensor longSensor(String name, String unit, String description);

    DoubleSensor doubleSensor(String name, String unit, String description);

    BooleanSensor booleanSensor(String name, String unit, String description);

    StringSensor stringSensor(String name, String unit, String description);

    /** A read-only attribute whose value {@code supplier} gives on pull (never an event). */
    Attribute longAttribute(String name, String unit, String description, LongSupplier supplier);

    Attribute doubleAttribute(String name, String unit, String description, DoubleSupplier supplier);

    Attribute booleanAttribute(String name, String unit, String description, BooleanSupplier supplier);

    Attribute stringAttribute(String name, String unit, String description, Supplier<String> supplier);
}
