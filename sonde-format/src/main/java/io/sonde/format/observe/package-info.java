/**
 * The observe protocol (docs/observe-protocol.md): live messages in LIVE frames of a format 2.1
 * stream, their encoders and decoders, shared by the observe endpoint and the observer client.
 */
package io.sonde.format.observe;
