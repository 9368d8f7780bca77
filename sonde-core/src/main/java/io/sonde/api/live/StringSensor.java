package io.sonde.api.live;

/**
 * A string attribute the application writes through; see {@link LongSensor}. Values compare with
 * {@code equals}; null is a value (the initial one).
 */
public interface StringSensor extends Attribute {
    void set(String value);

    String get();
}
