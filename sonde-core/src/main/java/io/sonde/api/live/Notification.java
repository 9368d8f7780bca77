package io.sonde.api.live;

import java.util.Objects;

/**
 * What a {@link EventKind#NOTIFICATION} event carries: a dotted type ({@code "jmx.attribute.change"},
 * {@code "shop.order.late"}), a message, the sender's sequence number and optional user data as text.
 * For a bridged MBean these are the JMX notification's type, message, sequence number and
 * {@code String.valueOf(userData)} (null when it had none).
 */
public record Notification(String type, String message, long sequence, String userData) {
    public Notification {
        Objects.requireNonNull(type, "notification type");
        if (message == null) message = "";
    }

    @Override
    public String toString() {
        return type + " #" + sequence + (message.isEmpty() ? "" : " '" + message + "'")
                + (userData == null ? "" : " data " + userData);
    }
}
