package io.sonde.api;

import io.sonde.core.buffer.EventCursor;

/**
 * The {@link EventWriter} of one thread: forwards to that thread's {@link EventCursor}. Kept in
 * the thread's buffer ({@code ThreadBuffer.attachment()}) so {@link EventType#begin()} finds it
 * without allocating.
 */
final class ThreadEventWriter implements EventWriter {
    /** A writer that ignores everything (monitor not running, type switched off). */
    static final EventWriter DISCARD = new Discard();

    private final EventCursor cursor;

    ThreadEventWriter(EventCursor cursor) {
        this.cursor = cursor;
    }

    EventWriter begin(int typeId, byte[] fieldTypes, int recordBytes, long time) {
        cursor.begin(typeId, fieldTypes, recordBytes, time);
        return this;
    }

    @Override
    public EventWriter putBoolean(boolean value) {
        cursor.putBoolean(value);
        return this;
    }

    @Override
    public EventWriter putInt(int value) {
        cursor.putInt(value);
        return this;
    }

    @Override
    public EventWriter putLong(long value) {
        cursor.putLong(value);
        return this;
    }

    @Override
    public EventWriter putDouble(double value) {
        cursor.putDouble(value);
        return this;
    }

    @Override
    public EventWriter putString(int stringId) {
        cursor.putString(stringId);
        return this;
    }

    @Override
    public void end() {
        cursor.end();
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
