/** The core's rate-limited diagnostic output ({@link io.sonde.core.log.SondeLog}). */
package io.sonde.core.log;
