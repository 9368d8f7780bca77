package io.sonde.core.buffer;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout;

/**
 * Writes the field values of the owner thread's current custom event into its ring (the engine
 * behind the API's {@code EventWriter}). One instance per {@link ThreadBuffer}, reused for every
 * event.
 */
public final class EventCursor {
    private final ThreadBuffer buffer;
    /**
     * Field values are staged here and copied into the ring at {@link #end()}: the ring space is
     * claimed only then, so code run between begin() and end() on this thread (for example a
     * probed method computing a field value) can record its own records without ever seeing a
     * half-written event, and no claimed-but-unpublished space is left behind.
     */
    private final byte[] staged = new byte[RecordLayout.EventDef.MAX_FIELDS * Long.BYTES]; // every field at most 8 bytes
    private int length;
    private byte[] types;
    private int field;
    private int typeId;
    private int recordBytes;
    private long time;
    private boolean open;

    EventCursor(ThreadBuffer buffer) {
        this.buffer = buffer;
    }

    /** Starts an event (ends an unfinished previous one first); {@code time} is its time stamp. */
    public EventCursor begin(int typeId, byte[] fieldTypes, int recordBytes, long time) {
        if (open) end();
        this.types = fieldTypes;
        this.typeId = typeId;
        this.recordBytes = recordBytes;
        this.time = time;
        field = 0;
        length = 0;
        open = true;
        return this;
    }

    private void check(byte type) {
        byte[] t = types;
        if (!open || field >= t.length || t[field] != type) {
            throw new IllegalStateException(!open ? "no event begun" : field >= t.length
                    ? "the event has only " + t.length + " fields"
                    : "field " + field + " has type " + t[field] + ", not " + type);
        }
        field++;
    }

    public EventCursor putBoolean(boolean value) {
        check(Format.FIELD_BOOLEAN);
        staged[length++] = value ? (byte) 1 : (byte) 0;
        return this;
    }

    public EventCursor putInt(int value) {
        check(Format.FIELD_INT);
        ThreadBuffer.INTS.set(staged, length, value);
        length += Integer.BYTES;
        return this;
    }

    public EventCursor putLong(long value) {
        check(Format.FIELD_LONG);
        ThreadBuffer.LONGS.set(staged, length, value);
        length += Long.BYTES;
        return this;
    }

    public EventCursor putDouble(double value) {
        check(Format.FIELD_DOUBLE);
        ThreadBuffer.LONGS.set(staged, length, Double.doubleToRawLongBits(value));
        length += Long.BYTES;
        return this;
    }

    public EventCursor putString(int stringId) {
        check(Format.FIELD_STRING);
        ThreadBuffer.INTS.set(staged, length, stringId);
        length += Integer.BYTES;
        return this;
    }

    /** Copies the staged values into the ring and publishes the record (dropped if it does not fit). */
    public void end() {
        if (!open) return;
        open = false;
        int valueBytes = recordBytes - RecordLayout.Event.HEADER_LENGTH;
        // fields left out are zero
        for (int k = length; k < valueBytes; k++) staged[k] = 0;
        int i = buffer.beginEvent(typeId, time, recordBytes);
        if (i >= 0) {
            buffer.putBytes(i, staged, valueBytes);
            buffer.publish();
        }
    }
}
