package io.sonde.api.live;

/**
 * A monitored attribute of a {@link MonitoredObject}: a typed value with a name, unit and
 * description. Either a sensor the application writes through ({@link LongSensor} and the other
 * sensor types: value changes are events) or a read-only attribute backed by a supplier (sampled
 * on pull, never an event).
 */
public interface Attribute {
    /** Stable id, unique in the tree for the attribute's life (never reused). */
    int id();

    /** The attribute's name, unique among its object's attributes and children. */
    String name();

    /** The object's path, {@code /}, the name. */
    String path();

    ValueType type();

    /** Unit ({@code "bytes"}, {@code "ms"}, {@code ""} for none). */
    String unit();

    String description();

    /** The object that holds it. */
    MonitoredObject owner();

    /** Whether value changes are events (a sensor), as opposed to a supplier read only on pull. */
    boolean isSensor();

    /** Reads the current value now (a supplier attribute calls its supplier). */
    AttributeValue read();
}
