/**
 * Observer sessions (MOOMS's subscription end-points): per session a bounded queue per priority
 * of references to shared events, subscriptions with their own QoS, and the dispatcher that forms
 * and delivers the deliveries, and the {@code WakeRelay} through which
 * a burst wakes the sleeping dispatchers with one unpark on the application thread. Reaches the
 * tree only through {@link io.sonde.core.live.mib.Tap}.
 */
package io.sonde.core.live.session;
