package io.sonde.core.writer;

import io.sonde.format.Format;
import io.sonde.format.write.StreamHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Writes frames to rolling segment files {@code <dir>/sonde-<agent-uuid>-<NNNNNN>.sonde}. Each
 * segment starts with the stream header and a registry frame holding every definition; before a
 * frame would push the segment past {@code file.segment.bytes}, a SEGMENT_END frame closes it and
 * the next segment begins. Frames go straight from the pipeline's reused buffer to the channel.
 */
public final class FileWriter implements Writer {
    private final Path dir;
    private final long segmentBytes;
    private final ByteBuffer header =
            ByteBuffer.allocateDirect(Format.STREAM_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private WriterContext context;
    private FileChannel channel;
    private int segmentIndex;
    private long segmentSize;
    /** Size of the segment's preamble (stream header + registry frames); rolling needs data beyond it. */
    private long preambleSize;
    private int segmentEndBytes;

    public FileWriter(Path dir, long segmentBytes) {
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        StreamHeader.put(header);
        header.flip();
    }

    /** The file name of a segment: {@code sonde-<agent-uuid>-<NNNNNN>.sonde}. */
    public static String segmentFileName(UUID agentId, int segmentIndex) {
        return String.format("sonde-%s-%06d.sonde", agentId, segmentIndex);
    }

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        Files.createDirectories(dir);
        openSegment(0);
    }

    private void openSegment(int index) throws IOException {
        segmentIndex = index;
        Path file = dir.resolve(segmentFileName(context.agentId(), index));
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        segmentSize = 0;
        header.rewind();
        writeFully(header);
        context.registryFrames(this::writeFully);
        preambleSize = segmentSize;
    }

    @Override
    public void write(ByteBuffer frame) throws IOException {
        int length = frame.position();
        if (segmentEndBytes == 0) {
            segmentEndBytes = context.frameHeaderBytes() + 4;
        }
        if (segmentSize > preambleSize && segmentSize + length + segmentEndBytes > segmentBytes) {
            roll();
        }
        context.seal(frame);
        writeFully(frame);
    }

    private void roll() throws IOException {
        writeFully(context.segmentEndFrame(segmentIndex + 1));
        channel.close();
        openSegment(segmentIndex + 1);
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            segmentSize += channel.write(b);
        }
    }

    @Override
    public void flush() {
        // Bytes are in the OS page cache once write() returns, which survives a JVM exit; no fsync
        // per flush interval (that would cost milliseconds on every interval).
    }

    @Override
    public void close() throws IOException {
        if (channel != null) channel.close();
    }

    /** Index of the segment being written. */
    public int segmentIndex() {
        return segmentIndex;
    }
}
