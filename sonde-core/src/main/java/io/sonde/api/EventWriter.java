package io.sonde.api;

/**
 * Writes the field values of one custom event straight into the calling thread's buffer, in the
 * order of the event type's fields, then {@link #end()} publishes the record. Obtained from
 * {@link EventType#begin()}; belongs to the calling thread and is reused for its next event, so
 * never keep it or pass it to another thread. Allocation-free.
 *
 * <pre>{@code
 * order.begin().putString(itemId).putInt(quantity).putDouble(price).end();
 * }</pre>
 *
 * A put of the wrong type or one too many throws {@link IllegalStateException}; fields left out
 * before {@code end()} are written as zero.
 */
public interface EventWriter {
    /** The next field, of type boolean. */
    EventWriter putBoolean(boolean value);

    /** The next field, of type int. */
    EventWriter putInt(int value);

    /** The next field, of type long. */
    EventWriter putLong(long value);

    /** The next field, of type double. */
    EventWriter putDouble(double value);

    /** A string field: pass the id from {@link Monitor#string(String)}. */
    EventWriter putString(int stringId);

    /** Publishes the event to the writer thread. */
    void end();
}
