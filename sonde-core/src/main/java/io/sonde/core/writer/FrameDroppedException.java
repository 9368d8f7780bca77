package io.sonde.core.writer;

import java.io.IOException;

/**
 * Thrown by {@link Writer#write} when one frame could not be written but the writer stays usable:
 * the caller counts the frame's records as dropped (reason writer failed) and goes on handing over
 * frames. Any other exception from a writer ends its use for the rest of the run.
 */
public final class FrameDroppedException extends IOException {
    private static final long serialVersionUID = 1L;

    public FrameDroppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
