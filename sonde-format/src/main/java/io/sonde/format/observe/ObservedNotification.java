package io.sonde.format.observe;

/**
 * What a NOTIFICATION event carries: type ({@code "jmx.attribute.change"}), message, the sender's
 * sequence number and the user data as text (null when none).
 */
public record ObservedNotification(String type, String message, long sequence, String userData) {}
