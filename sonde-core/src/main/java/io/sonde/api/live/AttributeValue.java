package io.sonde.api.live;

/**
 * The value of an attribute read on demand (pull): boxed as Long, Double, Boolean or String (null
 * for a string sensor never set), with the time it was read.
 */
public record AttributeValue(int id, String path, ValueType type, String unit, Object value, long timeNanos) {}
