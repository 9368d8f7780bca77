/** Sonde collector. */
package io.sonde.collector;
