/**
 * The live layer's implementation of {@link io.sonde.api.live.LiveTree}: assembles the tree
 * ({@code mib}), the sessions ({@code session}) and the autonomous probes ({@code probe}).
 */
package io.sonde.core.live;
