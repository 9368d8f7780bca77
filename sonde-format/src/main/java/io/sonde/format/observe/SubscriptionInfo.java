package io.sonde.format.observe;

/**
 * One subscription of an observe endpoint as SUBSCRIPTION_LIST reports it: the connection that
 * holds it (its id, and whether it is the asking one), its id within that connection, pattern,
 * kinds mask and QoS.
 */
public record SubscriptionInfo(int connectionId, boolean own, int subscriptionId, String pattern, int kindsMask,
        DeliveryQos qos) {}
