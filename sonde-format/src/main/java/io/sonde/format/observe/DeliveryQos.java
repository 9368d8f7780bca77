package io.sonde.format.observe;

import java.time.Duration;

/**
 * The QoS an observer asks for in SUBSCRIBE (the wire form of {@code io.sonde.api.live.Qos}): mode,
 * batch size, flush timeout or period, urgent priority. The endpoint checks the ranges.
 */
public record DeliveryQos(int mode, int batchSize, long intervalNanos, boolean isUrgent) {
    public static DeliveryQos immediate() {
        return new DeliveryQos(ObserveProtocol.QOS_IMMEDIATE, 1, 0L, false);
    }

    /** {@code n} events per delivery; a started batch goes after {@code flush}. */
    public static DeliveryQos batch(int n, Duration flush) {
        return new DeliveryQos(ObserveProtocol.QOS_BATCH, n, flush.toNanos(), false);
    }

    /** Everything of each period in one delivery. */
    public static DeliveryQos periodic(Duration period) {
        return new DeliveryQos(ObserveProtocol.QOS_PERIODIC, 0, period.toNanos(), false);
    }

    /** The latest value per attribute of each period in one delivery. */
    public static DeliveryQos periodicLatest(Duration period) {
        return new DeliveryQos(ObserveProtocol.QOS_PERIODIC_LATEST, 0, period.toNanos(), false);
    }

    /** The same QoS with urgent priority. */
    public DeliveryQos asUrgent() {
        return new DeliveryQos(mode, batchSize, intervalNanos, true);
    }
}
