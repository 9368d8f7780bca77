package io.sonde.api;

import io.sonde.format.Format;

/** A named, typed field of a custom event type. */
public final class EventField {
    final String name;
    final byte type;

    private EventField(String name, byte type) {
        this.name = name;
        this.type = type;
    }

    /** A boolean field (one byte). */
    public static EventField booleanField(String name) {
        return new EventField(name, Format.FIELD_BOOLEAN);
    }

    /** A 32-bit integer field. */
    public static EventField intField(String name) {
        return new EventField(name, Format.FIELD_INT);
    }

    /** A 64-bit integer field. */
    public static EventField longField(String name) {
        return new EventField(name, Format.FIELD_LONG);
    }

    /** A double field. */
    public static EventField doubleField(String name) {
        return new EventField(name, Format.FIELD_DOUBLE);
    }

    /** A string field; its values are string ids from {@link Monitor#string(String)}. */
    public static EventField stringField(String name) {
        return new EventField(name, Format.FIELD_STRING);
    }

    /** The field's name, as in the EVENT_DEF record. */
    public String name() {
        return name;
    }

    /** The format's field type code (Format.FIELD_*). */
    public byte type() {
        return type;
    }
}
