package io.sonde.api.live;

/**
 * A double attribute the application writes through; see {@link LongSensor}. Values compare by
 * their bits: {@code 0.0} and {@code -0.0} differ, NaN equals NaN.
 */
public interface DoubleSensor extends Attribute {
    void set(double value);

    double get();
}
