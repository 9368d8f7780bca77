package io.sonde.core.pipeline;

import io.sonde.api.Counters;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.writer.FrameDroppedException;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.Format;
import io.sonde.format.write.FrameHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/**
 * The body of the writer thread: drains every ring into DATA frames and hands finished frames to
 * the writer plug-in. Also the {@link WriterContext} the plug-in sees.
 *
 * <p>One drain: (1) read every ring's published write position, (2) take the pending definitions
 * and put them into a registry block, (3) copy each ring's records up to the position read in (1)
 * into a block of that thread. Taking definitions after reading the positions guarantees that a
 * definition precedes the first record using its id. Records are parsed (the type byte gives the
 * size, for EVENT the event type does), so pads are skipped, data records counted and a long run
 * split across frames at record boundaries.
 */
final class WriterLoop implements Runnable, WriterContext {
    private final Pipeline p;
    private final Writer writer;
    private final FrameHeader header;
    private ByteBuffer frame;
    private int frameLimit;
    private long frameRecords;
    private boolean frameHasBlocks;
    private ByteBuffer registryBuffer;
    private ByteBuffer segmentEndBuffer;
    private long sequence;
    private boolean failed;
    volatile boolean stop;
    volatile Counters finalCounters;
    volatile boolean finished;
    private long[] limits = new long[16];
    private boolean[] deadAtSnapshot = new boolean[16];

    WriterLoop(Pipeline p) {
        this.p = p;
        this.writer = p.writer;
        this.header = new FrameHeader(p.identity.agentId, p.identity.pid, p.identity.host);
        this.frameLimit = p.frameBytes;
        this.frame = ByteBuffer.allocateDirect(p.frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        header.open(frame, Format.FRAME_DATA);
    }

    @Override
    public void run() {
        open();
        long nextFlush = System.nanoTime() + p.flushIntervalNanos;
        while (!stop) {
            try {
                drain();
                long now = System.nanoTime();
                if (now - nextFlush >= 0) {
                    emitFrame();
                    if (!failed) writer.flush();
                    nextFlush = now + p.flushIntervalNanos;
                }
            } catch (IOException | RuntimeException e) {
                fail("writing failed", e);
            }
            if (!stop) LockSupport.parkNanos(Math.max(1, nextFlush - System.nanoTime()));
        }
        finish();
    }

    void open() {
        try {
            writer.open(this);
        } catch (IOException | RuntimeException e) {
            fail("cannot open the writer", e);
        }
    }

    /** The final drain, the trailer and closing the writer. */
    void finish() {
        try {
            drain();
            emitFrame();
        } catch (IOException | RuntimeException e) {
            fail("writing failed at close", e);
        }
        Counters c = p.sum(true);
        finalCounters = c;
        if (!failed) {
            try {
                writeTrailer(c);
            } catch (IOException | RuntimeException e) {
                fail("cannot write the trailer", e);
            }
        }
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            System.err.println("sonde: closing the writer failed: " + e);
        }
        finished = true;
    }

    private void fail(String what, Throwable e) {
        if (!failed) {
            failed = true;
            System.err.println("sonde: " + what + " (" + e + "); further records are dropped and counted"
                    + " (reason writer failed)");
        }
    }

    // ---------------------------------------------------------------- draining

    /** One pass over all rings. Returns the number of bytes consumed. */
    long drain() throws IOException {
        ThreadBuffer[] bufs = p.buffers();
        if (limits.length < bufs.length) {
            limits = new long[bufs.length * 2];
            deadAtSnapshot = new boolean[bufs.length * 2];
        }
        for (int k = 0; k < bufs.length; k++) {
            // death first: a thread seen dead has published everything it will ever produce
            deadAtSnapshot[k] = bufs[k].ownerDead();
            limits[k] = bufs[k].writePosition();
        }
        List<byte[]> defs = p.registry().takePending();
        if (!defs.isEmpty()) appendRegistryBlock(defs);
        long consumed = 0;
        for (int k = 0; k < bufs.length; k++) {
            ThreadBuffer b = bufs[k];
            consumed += copyRecords(b, limits[k]);
            if (deadAtSnapshot[k] && b.readPosition() == limits[k]) {
                p.release(b);
            }
        }
        return consumed;
    }

    private void appendRegistryBlock(List<byte[]> defs) throws IOException {
        int block = -1;
        for (byte[] d : defs) {
            if (block >= 0 && frame.position() + d.length > frameLimit) {
                FrameHeader.endBlock(frame, block);
                block = -1;
                emitFrame();
            }
            if (block < 0) {
                ensureRoom(Format.BLOCK_HEADER_BYTES + d.length);
                block = FrameHeader.beginBlock(frame, Format.REGISTRY_THREAD_ID);
                frameHasBlocks = true;
            }
            frame.put(d);
        }
        if (block >= 0) FrameHeader.endBlock(frame, block);
    }

    /** Makes sure the current frame has {@code n} more bytes, emitting it or growing the buffer. */
    private void ensureRoom(int n) throws IOException {
        if (frame.position() + n <= frameLimit) return;
        emitFrame();
        if (frame.position() + n > frame.capacity()) {
            // a single record larger than frame.bytes (a huge definition): grow this buffer once
            ByteBuffer bigger = ByteBuffer.allocateDirect(header.headerBytes() + n).order(ByteOrder.LITTLE_ENDIAN);
            frame = bigger;
            header.open(frame, Format.FRAME_DATA);
        }
        frameLimit = Math.max(p.frameBytes, frame.capacity());
    }

    /** Copies the records of {@code b} in [read, limit) into thread blocks. Returns bytes consumed. */
    private long copyRecords(ThreadBuffer b, long limit) throws IOException {
        long r = b.readPosition();
        if (r == limit) return 0;
        long start = r;
        byte[] ring = b.ring();
        int cap = b.capacity();
        int mask = cap - 1;
        int block = -1;
        int runStart = -1; // ring index where the current contiguous run of records starts
        int runLen = 0;
        long runRecords = 0;
        while (r < limit) {
            int i = (int) r & mask;
            byte type = ring[i];
            if (type == ThreadBuffer.PAD) {
                if (runLen > 0) {
                    frame.put(ring, runStart, runLen);
                    frameRecords += runRecords;
                    runLen = 0;
                    runRecords = 0;
                }
                r += cap - i;
                continue;
            }
            int size = recordBytes(type, ring, i);
            if (size <= 0 || r + size > limit) {
                throw new IllegalStateException("corrupt ring of thread " + b.threadId() + ": type " + type
                        + " at index " + i);
            }
            if (block < 0 || frame.position() + runLen + size > frameLimit) {
                // close the run and block, emit the full frame, open a new block
                if (runLen > 0) {
                    frame.put(ring, runStart, runLen);
                    frameRecords += runRecords;
                    runLen = 0;
                    runRecords = 0;
                }
                if (block >= 0) {
                    FrameHeader.endBlock(frame, block);
                    block = -1;
                    b.releaseTo(r); // copied: let the producer reuse the space while we write
                    emitFrame();
                }
                ensureRoom(Format.BLOCK_HEADER_BYTES + size);
                block = FrameHeader.beginBlock(frame, b.threadId());
                frameHasBlocks = true;
            }
            if (runLen > 0 && runStart + runLen != i) {
                // the ring wrapped exactly at its end (no pad byte): the run is not contiguous
                frame.put(ring, runStart, runLen);
                frameRecords += runRecords;
                runLen = 0;
                runRecords = 0;
            }
            if (runLen == 0) runStart = i;
            runLen += size;
            if (Format.isDataRecord(type)) runRecords++;
            r += size;
        }
        if (runLen > 0) {
            frame.put(ring, runStart, runLen);
            frameRecords += runRecords;
        }
        if (block >= 0) FrameHeader.endBlock(frame, block);
        b.releaseTo(r);
        return r - start;
    }

    private int recordBytes(byte type, byte[] ring, int i) {
        if (type == Format.EVENT) {
            int id = (ring[i + 1] & 0xFF) | (ring[i + 2] & 0xFF) << 8 | (ring[i + 3] & 0xFF) << 16 | (ring[i + 4] & 0xFF) << 24;
            return p.registry().eventRecordBytes(id);
        }
        return Format.fixedRecordBytes(type);
    }

    /** Hands the current frame to the writer if it holds anything, then opens the next one. */
    void emitFrame() throws IOException {
        if (!frameHasBlocks) return;
        long records = frameRecords;
        frameRecords = 0;
        frameHasBlocks = false;
        try {
            if (failed) {
                p.droppedWriterFailed += records;
            } else {
                try {
                    writer.write(frame);
                    p.written += records;
                } catch (FrameDroppedException e) {
                    p.droppedWriterFailed += records; // this frame only: the writer stays usable (it reported why)
                } catch (IOException | RuntimeException e) {
                    p.droppedWriterFailed += records;
                    fail("writing a frame failed", e);
                }
            }
        } finally {
            if (frame.capacity() != p.frameBytes) {
                // the buffer was grown for one huge definition; go back to the configured size
                frame = ByteBuffer.allocateDirect(p.frameBytes).order(ByteOrder.LITTLE_ENDIAN);
                frameLimit = p.frameBytes;
            }
            header.open(frame, Format.FRAME_DATA);
        }
    }

    private void writeTrailer(Counters c) throws IOException {
        header.open(frame, Format.FRAME_TRAILER);
        long[] drops = new long[5];
        for (int r = 1; r <= 4; r++) drops[r] = c.dropped(r);
        FrameHeader.putTrailer(frame, c.produced(), c.written(), drops);
        writer.write(frame);
        writer.flush();
    }

    // ---------------------------------------------------------------- WriterContext

    @Override
    public void seal(ByteBuffer f) {
        header.seal(f, sequence++, p.identity.wallNanos.getAsLong(), p.identity.monoNanos.getAsLong());
    }

    @Override
    public void reseal(ByteBuffer f) {
        header.reseal(f, sequence++, p.identity.wallNanos.getAsLong(), p.identity.monoNanos.getAsLong());
    }

    @Override
    public void registryFrames(FrameSink sink) throws IOException {
        List<byte[]> all = p.registry().allAndClearPending();
        if (registryBuffer == null) {
            registryBuffer = ByteBuffer.allocateDirect(p.frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        ByteBuffer b = registryBuffer;
        header.open(b, Format.FRAME_DATA);
        int block = FrameHeader.beginBlock(b, Format.REGISTRY_THREAD_ID);
        int inBlock = 0;
        for (byte[] d : all) {
            if (inBlock > 0 && b.position() + d.length > b.capacity()) {
                FrameHeader.endBlock(b, block);
                seal(b);
                sink.accept(b);
                header.open(b, Format.FRAME_DATA);
                block = FrameHeader.beginBlock(b, Format.REGISTRY_THREAD_ID);
                inBlock = 0;
            }
            if (b.position() + d.length > b.capacity()) {
                ByteBuffer bigger = ByteBuffer.allocateDirect(header.headerBytes() + Format.BLOCK_HEADER_BYTES + d.length)
                        .order(ByteOrder.LITTLE_ENDIAN);
                header.open(bigger, Format.FRAME_DATA);
                block = FrameHeader.beginBlock(bigger, Format.REGISTRY_THREAD_ID);
                b = bigger;
            }
            b.put(d);
            inBlock++;
        }
        FrameHeader.endBlock(b, block);
        seal(b);
        sink.accept(b);
    }

    @Override
    public ByteBuffer segmentEndFrame(int nextSegmentIndex) {
        if (segmentEndBuffer == null) {
            segmentEndBuffer = ByteBuffer.allocateDirect(header.headerBytes() + 4).order(ByteOrder.LITTLE_ENDIAN);
        }
        header.open(segmentEndBuffer, Format.FRAME_SEGMENT_END);
        FrameHeader.putSegmentEnd(segmentEndBuffer, nextSegmentIndex);
        seal(segmentEndBuffer);
        return segmentEndBuffer;
    }

    @Override
    public int frameHeaderBytes() {
        return header.headerBytes();
    }

    @Override
    public UUID agentId() {
        return p.identity.agentId;
    }

    @Override
    public boolean closing() {
        return p.isClosed();
    }

    @Override
    public long closeDeadlineNanos() {
        return p.closeDeadlineNanos;
    }
}
