/** Sonde core. */
package io.sonde.core;
