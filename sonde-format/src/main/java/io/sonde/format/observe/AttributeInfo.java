package io.sonde.format.observe;

/**
 * An attribute as listed by LIST: id, path, value type ({@code LONG DOUBLE BOOLEAN STRING}),
 * whether it is a sensor (pushes value changes) or a supplied attribute (pull only), unit, description.
 */
public record AttributeInfo(int id, String path, String valueType, boolean sensor, String unit, String description) {}
