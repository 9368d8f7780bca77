package io.sonde.core.probe;

import io.sonde.core.buffer.ThreadBuffer;

/**
 * What a {@link ProbeRuntime} needs from the pipeline that drains its buffers: a buffer for a
 * thread's first record and string ids for exception class names. Owned by this package so the
 * probes depend only on the buffers, never on the pipeline that implements this (slow path only).
 */
public interface ProbeHost {
    /** Creates the buffer of {@code owner}, the calling thread (once per thread). */
    ThreadBuffer newBuffer(Thread owner);

    /** The id of a string, defining it if new (exception class names of EXIT_EXCEPTION records). */
    int stringId(String value);
}
