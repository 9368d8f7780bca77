package io.sonde.api.live;

/** The type of a monitored attribute's value. */
public enum ValueType {
    LONG,
    DOUBLE,
    BOOLEAN,
    STRING
}
