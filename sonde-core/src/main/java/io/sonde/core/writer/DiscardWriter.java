package io.sonde.core.writer;

import java.nio.ByteBuffer;

/** Drops every frame, counting frames and bytes: measures the pipeline without I/O. */
public final class DiscardWriter implements Writer {
    private volatile long frames;
    private volatile long bytes;

    @Override
    public void open(WriterContext context) {}

    @Override
    public void write(ByteBuffer frame) {
        // not sealed: no sequence, no CRC work, nothing leaves the process
        frames++;
        bytes += frame.position();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    public long frames() {
        return frames;
    }

    public long bytes() {
        return bytes;
    }
}
