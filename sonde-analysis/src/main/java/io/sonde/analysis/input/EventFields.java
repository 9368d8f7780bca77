package io.sonde.analysis.input;

/**
 * The field values of the event record being delivered, rendered only when asked for (most events
 * are only counted; those inside a kept tree are shown with their values). Valid only during the
 * {@link RecordHandler#onEvent} call that passes it.
 */
@FunctionalInterface
public interface EventFields {
    /** No fields. */
    EventFields NONE = () -> "";

    /** The values as {@code name=value} pairs separated by spaces, e.g. {@code paid=true items=3}. */
    String text();
}
