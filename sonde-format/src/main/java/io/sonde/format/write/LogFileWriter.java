package io.sonde.format.write;

import io.sonde.format.Format;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes spec-conformant Sonde log files from explicit records, without an agent: for the analysis
 * benchmark (which generates its own large log) and for tests that need files with known trees and
 * times. Records
 * go into the current DATA frame in call order: consecutive records of one thread share a block,
 * definitions go into a registry block at the point they are made. A frame is sealed when it
 * passes {@link #FRAME_TARGET_BYTES}, stamped with the latest record time (wall time derived from
 * the anchor given at construction). Every part is encoded by this package's encoders
 * ({@link FrameHeader}, {@link Definitions}, {@link ThreadRecords}).
 *
 * <p>File names follow the file writer: {@code <dir>/sonde-<agent>-<NNNNNN>.sonde}; {@link
 * #rollSegment} ends a segment with SEGMENT_END and starts the next with a registry frame that
 * repeats every definition.
 */
public final class LogFileWriter implements Closeable {
    /** A frame is sealed once its payload passes this size. */
    public static final int FRAME_TARGET_BYTES = 256 * 1024;

    private final Path dir;
    private final UUID agent;
    private final FrameHeader header;
    private final long wallAnchor;
    private final long monoAnchor;
    private final ByteBuffer buf = ByteBuffer.allocate(FRAME_TARGET_BYTES + 64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    private final List<byte[]> definitions = new ArrayList<>();
    private FileChannel out;
    private int segment;
    private long sequence;
    private long blockThread = Long.MIN_VALUE;
    private int blockStart = -1;
    private boolean frameOpen;
    private long lastTime;
    private long dataRecords;
    private long segmentBytes;

    /**
     * Starts segment 0 in {@code dir}.
     *
     * @param wallAnchor wall-clock ns since the epoch at monotonic time {@code monoAnchor}
     */
    public LogFileWriter(Path dir, UUID agent, long pid, String host, long wallAnchor, long monoAnchor) throws IOException {
        this.dir = dir;
        this.agent = agent;
        this.header = new FrameHeader(agent, pid, host);
        this.wallAnchor = wallAnchor;
        this.monoAnchor = monoAnchor;
        this.lastTime = monoAnchor;
        openSegment();
    }

    /** The file of the given segment index. */
    public Path segmentFile(int index) {
        return dir.resolve(String.format("sonde-%s-%06d.sonde", agent, index));
    }

    public LogFileWriter probe(int id, String name, String signature) throws IOException {
        return definition(Definitions.probeDef(id, name, signature));
    }

    public LogFileWriter string(int id, String value) throws IOException {
        return definition(Definitions.stringDef(id, value));
    }

    public LogFileWriter thread(long threadId, String name) throws IOException {
        return definition(Definitions.threadDef(threadId, name));
    }

    private LogFileWriter definition(byte[] def) throws IOException {
        definitions.add(def);
        room(def.length);
        block(Format.REGISTRY_THREAD_ID);
        buf.put(def);
        return this;
    }

    public LogFileWriter traceStart(long threadId, long traceId, long parentTraceId, int parentOrderIndex) throws IOException {
        record(threadId, Format.TRACE_START_BYTES);
        ThreadRecords.traceStart(buf, traceId, parentTraceId, parentOrderIndex);
        return this;
    }

    /** A HANDOFF_START: the trace start of work handed over at {@code handoffTime} by the given parent execution. */
    public LogFileWriter handoffStart(long threadId, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) throws IOException {
        record(threadId, Format.HANDOFF_START_BYTES);
        ThreadRecords.handoffStart(buf, traceId, parentTraceId, parentOrderIndex, handoffTime);
        return this;
    }

    public LogFileWriter enter(long threadId, int probeId, long time) throws IOException {
        data(threadId, Format.ENTER_BYTES, time);
        ThreadRecords.enter(buf, probeId, time);
        return this;
    }

    public LogFileWriter exit(long threadId, int probeId, long time) throws IOException {
        data(threadId, Format.EXIT_BYTES, time);
        ThreadRecords.exit(buf, probeId, time);
        return this;
    }

    public LogFileWriter enterCpu(long threadId, int probeId, long time, long cpu) throws IOException {
        data(threadId, Format.ENTER_CPU_BYTES, time);
        ThreadRecords.enterCpu(buf, probeId, time, cpu);
        return this;
    }

    public LogFileWriter exitCpu(long threadId, int probeId, long time, long cpu) throws IOException {
        data(threadId, Format.EXIT_CPU_BYTES, time);
        ThreadRecords.exitCpu(buf, probeId, time, cpu);
        return this;
    }

    public LogFileWriter exitException(long threadId, int probeId, long time, int exceptionStringId) throws IOException {
        data(threadId, Format.EXIT_EXCEPTION_BYTES, time);
        ThreadRecords.exitException(buf, probeId, time, exceptionStringId);
        return this;
    }

    public LogFileWriter exitExceptionCpu(long threadId, int probeId, long time, long cpu, int exceptionStringId) throws IOException {
        data(threadId, Format.EXIT_EXCEPTION_CPU_BYTES, time);
        ThreadRecords.exitExceptionCpu(buf, probeId, time, cpu, exceptionStringId);
        return this;
    }

    public LogFileWriter gap(long threadId, int dropped) throws IOException {
        record(threadId, Format.GAP_BYTES);
        ThreadRecords.gap(buf, dropped);
        return this;
    }

    /** Seals the current frame now (so that tests can place frame boundaries). */
    public LogFileWriter flushFrame() throws IOException {
        sealData();
        return this;
    }

    /** Ends the current segment with SEGMENT_END and starts the next one with a registry frame. */
    public LogFileWriter rollSegment() throws IOException {
        sealData();
        header.open(buf, Format.FRAME_SEGMENT_END);
        FrameHeader.putSegmentEnd(buf, segment + 1);
        emit();
        out.close();
        segment++;
        openSegment();
        return this;
    }

    /** Bytes written to the current segment file so far (sealed frames only). */
    public long segmentBytes() {
        return segmentBytes;
    }

    /** Data records written so far. */
    public long dataRecords() {
        return dataRecords;
    }

    /** Writes the trailer (produced = written = data records) and closes the file. */
    @Override
    public void close() throws IOException {
        close(true);
    }

    /** Closes the file, with or without the trailer (without: like a writer that did not close cleanly). */
    public void close(boolean trailer) throws IOException {
        sealData();
        if (trailer) {
            header.open(buf, Format.FRAME_TRAILER);
            FrameHeader.putTrailer(buf, dataRecords, dataRecords, new long[5]);
            emit();
        }
        out.close();
    }

    private void openSegment() throws IOException {
        out = FileChannel.open(segmentFile(segment), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        out.write(ByteBuffer.wrap(StreamHeader.bytes()));
        segmentBytes = Format.STREAM_HEADER_BYTES;
        if (!definitions.isEmpty()) {
            openFrame();
            block(Format.REGISTRY_THREAD_ID);
            for (byte[] d : definitions) {
                if (buf.remaining() < d.length + 64) {
                    sealData();
                    openFrame();
                    block(Format.REGISTRY_THREAD_ID);
                }
                buf.put(d);
            }
            sealData();
        }
    }

    private void data(long threadId, int bytes, long time) throws IOException {
        record(threadId, bytes);
        dataRecords++;
        if (time > lastTime) lastTime = time;
    }

    private void record(long threadId, int bytes) throws IOException {
        room(bytes);
        block(threadId);
    }

    /** Makes sure the open frame can take {@code bytes} more (sealing it when it is full). */
    private void room(int bytes) throws IOException {
        if (frameOpen && buf.position() + bytes + Format.BLOCK_HEADER_BYTES > FRAME_TARGET_BYTES) sealData();
        if (!frameOpen) openFrame();
    }

    private void openFrame() {
        header.open(buf, Format.FRAME_DATA);
        frameOpen = true;
        blockThread = Long.MIN_VALUE;
        blockStart = -1;
    }

    private void block(long threadId) {
        if (blockThread == threadId && blockStart >= 0) return;
        if (blockStart >= 0) FrameHeader.endBlock(buf, blockStart);
        blockStart = FrameHeader.beginBlock(buf, threadId);
        blockThread = threadId;
    }

    private void sealData() throws IOException {
        if (!frameOpen) return;
        if (blockStart >= 0) FrameHeader.endBlock(buf, blockStart);
        blockStart = -1;
        frameOpen = false;
        emit();
    }

    private void emit() throws IOException {
        header.seal(buf, sequence++, wallAnchor + (lastTime - monoAnchor), lastTime);
        segmentBytes += buf.remaining();
        while (buf.hasRemaining()) out.write(buf);
    }
}
