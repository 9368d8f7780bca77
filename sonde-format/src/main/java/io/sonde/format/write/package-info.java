/**
 * Writer-side encoders of the Sonde binary format: the stream header, frame headers and their
 * sealing (length, sequence, times, CRC-32C), block headers, definition records and the trailer.
 * These work on caller-supplied little-endian {@link java.nio.ByteBuffer}s so that a writer can
 * reuse one buffer for every frame.
 */
package io.sonde.format.write;
