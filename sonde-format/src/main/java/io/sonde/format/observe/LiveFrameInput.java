package io.sonde.format.observe;

import io.sonde.format.read.FormatException;
import io.sonde.format.read.FrameInput;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads an observe connection's incoming stream: the stream header (format 2.1 or later minor),
 * then LIVE frames, each checked by {@link FrameInput} (magic, length, CRC-32C) and handed out as a
 * {@link PayloadReader} over its message.
 */
public final class LiveFrameInput {
    private final FrameInput in;

    public LiveFrameInput(InputStream stream, String source) {
        this.in = new FrameInput(stream, source, ObserveProtocol.MAX_FRAME_BYTES);
    }

    /** Reads the stream header; false at end of input before it. Refuses a stream older than 2.1. */
    public boolean readStreamHeader() throws IOException {
        if (!in.readStreamHeader()) return false;
        if (in.majorVersion() != ObserveProtocol.STREAM_MAJOR_VERSION || in.minorVersion() < ObserveProtocol.STREAM_MINOR_VERSION) {
            throw new IOException(in.source() + ": stream version " + in.majorVersion() + "." + in.minorVersion()
                    + " is not an observe stream (needs 2." + ObserveProtocol.STREAM_MINOR_VERSION + " or a later 2.x)");
        }
        return true;
    }

    /**
     * The next message, or null at a clean end of input. A broken envelope throws a
     * {@link FormatException}; after it the stream cannot be trusted.
     */
    public PayloadReader next() throws IOException {
        while (in.nextFrame()) {
            if (in.header().type() != ObserveProtocol.FRAME_LIVE) continue; // a later minor's frame type: skip
            return new PayloadReader(in.frameBytes(), in.header().headerLength(), in.frameLength());
        }
        return null;
    }

    /**
     * The frames underneath, for a relay that passes whole frames on unchanged (after the first
     * message was read with {@link #next}); do not mix with {@link #next} afterwards.
     */
    public FrameInput frames() {
        return in;
    }

    public String source() {
        return in.source();
    }
}
