package io.sonde.api.live;

/** A boolean attribute the application writes through; see {@link LongSensor}. */
public interface BooleanSensor extends Attribute {
    void set(boolean value);

    boolean get();
}
