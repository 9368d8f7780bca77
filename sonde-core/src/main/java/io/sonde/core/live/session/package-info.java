/**
 * Observer sessions (MOOMS's subscription end-points): per session a bounded queue per priority
 * of references to shared events, subscriptions with their own QoS, and the dispatcher that forms
 * and delivers the deliveries. Reaches the tree only through {@link io.sonde.core.live.mib.Tap}.
 */
package io.sonde.core.live.session;
