package io.sonde.core.buffer;

import io.sonde.api.EventWriter;
import io.sonde.format.Format;

/**
 * The per-thread {@link EventWriter}: writes field values of the current event into the owner's
 * ring at the claimed position. One instance per {@link ThreadBuffer}, reused for every event.
 */
public final class EventCursor implements EventWriter {
    /** A writer that ignores everything (monitor not running, type switched off). */
    public static final EventWriter DISCARD = new Discard();

    private final ThreadBuffer buffer;
    /** Ring index of the next field value; -1 when the event was dropped. */
    private int index = -1;
    private byte[] types;
    private int field;
    private boolean open;

    EventCursor(ThreadBuffer buffer) {
        this.buffer = buffer;
    }

    /** Starts an event (ends an unfinished previous one first). */
    public EventWriter begin(int typeId, byte[] fieldTypes, int recordBytes, long time) {
        if (open) end();
        types = fieldTypes;
        field = 0;
        open = true;
        index = buffer.beginEvent(typeId, time, recordBytes);
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

    @Override
    public EventWriter putBoolean(boolean value) {
        check(Format.FIELD_BOOLEAN);
        if (index >= 0) buffer.putByte(index++, value ? (byte) 1 : (byte) 0);
        return this;
    }

    @Override
    public EventWriter putInt(int value) {
        check(Format.FIELD_INT);
        if (index >= 0) {
            buffer.putInt(index, value);
            index += 4;
        }
        return this;
    }

    @Override
    public EventWriter putLong(long value) {
        check(Format.FIELD_LONG);
        if (index >= 0) {
            buffer.putLong(index, value);
            index += 8;
        }
        return this;
    }

    @Override
    public EventWriter putDouble(double value) {
        check(Format.FIELD_DOUBLE);
        if (index >= 0) {
            buffer.putLong(index, Double.doubleToRawLongBits(value));
            index += 8;
        }
        return this;
    }

    @Override
    public EventWriter putString(int stringId) {
        check(Format.FIELD_STRING);
        if (index >= 0) {
            buffer.putInt(index, stringId);
            index += 4;
        }
        return this;
    }

    @Override
    public void end() {
        if (!open) return;
        open = false;
        if (index >= 0) {
            byte[] t = types;
            for (int f = field; f < t.length; f++) {
                // fields left out are zero (the ring holds stale bytes)
                int n = Format.fieldBytes(t[f]);
                for (int k = 0; k < n; k++) buffer.putByte(index++, (byte) 0);
            }
            buffer.publish();
        }
        index = -1;
    }

    private static final class Discard implements EventWriter {
        @Override
        public EventWriter putBoolean(boolean value) {
            return this;
        }

        @Override
        public EventWriter putInt(int value) {
            return this;
        }

        @Override
        public EventWriter putLong(long value) {
            return this;
        }

        @Override
        public EventWriter putDouble(double value) {
            return this;
        }

        @Override
        public EventWriter putString(int stringId) {
            return this;
        }

        @Override
        public void end() {}
    }
}
