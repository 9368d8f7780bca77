package io.sonde.format.read;

import io.sonde.format.Format;
import java.util.Arrays;
import java.util.Objects;

/** A custom event type as defined by an EVENT_DEF record: a name and a fixed list of typed fields. */
public final class EventType {
    private final int id;
    private final String name;
    private final byte[] fieldTypes;
    private final String[] fieldNames;
    private final int[] fieldOffsets;
    private final int valueBytes;

    EventType(int id, String name, byte[] fieldTypes, String[] fieldNames) {
        this.id = id;
        this.name = name;
        this.fieldTypes = fieldTypes;
        this.fieldNames = fieldNames;
        this.fieldOffsets = new int[fieldTypes.length];
        int off = 0;
        for (int i = 0; i < fieldTypes.length; i++) {
            fieldOffsets[i] = off;
            off += Format.fieldBytes(fieldTypes[i]);
        }
        this.valueBytes = off;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public int fieldCount() {
        return fieldTypes.length;
    }

    /** Field type code, one of {@code Format.FIELD_*}. */
    public byte fieldType(int index) {
        return fieldTypes[index];
    }

    public String fieldName(int index) {
        return fieldNames[index];
    }

    /** Offset of the field's value from the first value byte of an EVENT record. */
    public int fieldOffset(int index) {
        return fieldOffsets[index];
    }

    /** Total size of the values of one EVENT record of this type. */
    public int valueBytes() {
        return valueBytes;
    }

    /** Human-readable name of a field type code. */
    public static String fieldTypeName(byte type) {
        switch (type) {
            case Format.FIELD_BOOLEAN:
                return "boolean";
            case Format.FIELD_INT:
                return "int";
            case Format.FIELD_LONG:
                return "long";
            case Format.FIELD_DOUBLE:
                return "double";
            case Format.FIELD_STRING:
                return "string";
            default:
                return "type" + (type & 0xFF);
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof EventType)) {
            return false;
        }
        EventType e = (EventType) o;
        return id == e.id && name.equals(e.name) && Arrays.equals(fieldTypes, e.fieldTypes) && Arrays.equals(fieldNames, e.fieldNames);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, Arrays.hashCode(fieldTypes), Arrays.hashCode(fieldNames));
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(name).append('(');
        for (int i = 0; i < fieldTypes.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(fieldTypeName(fieldTypes[i])).append(' ').append(fieldNames[i]);
        }
        return s.append(')').toString();
    }
}
