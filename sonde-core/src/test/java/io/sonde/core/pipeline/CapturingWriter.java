package io.sonde.core.pipeline;

import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.write.StreamHeader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A writer for tests that keeps in memory the stream it is given: the stream header, the registry
 * frames at open, then every frame handed over, sealed. Subclasses see each sealed frame in
 * {@link #take} (keeping it or not) and may change what {@link #write} does before sealing.
 */
abstract class CapturingWriter implements Writer {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WriterContext context;

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        bytes.writeBytes(StreamHeader.bytes());
        context.registryFrames(this::take);
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        context.seal(frame);
        take(frame);
    }

    /** A sealed frame in {@code [position, limit)}: kept by default. */
    void take(ByteBuffer sealed) throws IOException {
        keep(sealed);
    }

    /** Appends the sealed frame to the stream, leaving the buffer as it is. */
    final void keep(ByteBuffer sealed) {
        byte[] b = new byte[sealed.remaining()];
        sealed.get(sealed.position(), b);
        bytes.writeBytes(b);
    }

    /** The stream kept so far. */
    final InputStream stream() {
        return new ByteArrayInputStream(bytes.toByteArray());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
