/** Sonde sim. */
package io.sonde.sim;
