package io.sonde.core.writer;

import io.sonde.format.DropReason;
import java.io.IOException;

/**
 * Thrown by {@link Writer#write} when one frame could not be written but the writer stays usable:
 * the caller counts the frame's records as dropped with {@link #reason()} (writer failed unless the
 * writer says otherwise) and goes on handing over frames. Any other exception from a writer ends
 * its use for the rest of the run.
 */
public final class FrameDroppedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final DropReason reason;

    public FrameDroppedException(String message, Throwable cause) {
        this(DropReason.WRITER_FAILED, message, cause);
    }

    public FrameDroppedException(DropReason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why the frame's records are dropped. */
    public DropReason reason() {
        return reason;
    }
}
