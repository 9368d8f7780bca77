package io.sonde.format.observe;

/** A value read by GET: attribute id and path, unit, value (Long, Double, Boolean, String or null), time read. */
public record AttributeReading(int id, String path, String unit, Object value, long timeNanos) {}
