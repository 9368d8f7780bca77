package io.sonde.core.pipeline;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.log.SondeLog;
import io.sonde.core.pipeline.packing.Packing;
import io.sonde.core.pipeline.packing.WaitBound;
import io.sonde.core.writer.FrameDroppedException;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.RecordLayout;
import io.sonde.format.compress.FrameCompressor;
import io.sonde.format.write.FrameHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer thread ("sonde-writer") and its work: drains every ring into DATA frames and hands
 * finished frames to the writer plug-in; also the {@link WriterContext} the plug-in sees. It owns
 * its thread, its lifecycle ({@link State}) and its counters (frames, records and bytes written,
 * records dropped by the writer side); the {@link Pipeline} starts it, wakes it and shuts it down.
 *
 * <p>One drain: (1) read every ring's published write position, (2) take the pending definitions
 * and put them into the frame's registry block, its first block, (3) copy each ring's records up
 * to the position read in (1) into a block of that thread. Taking definitions after reading the positions guarantees that a
 * definition precedes the first record using its id. Records are parsed (the type byte gives the
 * size, for EVENT the event type does), so pads are skipped, data records counted and a long run
 * split across frames at record boundaries.
 *
 * <p>Packing ({@link Packing}): a frame also ends when it holds the packing degree's number of
 * data records. In the wait-bounded modes a partial frame goes out when its oldest record reaches
 * {@code packing.maxwait.ms} ({@link WaitBound}) instead of at every flush interval, the loop polls
 * at least every half of that bound, and the adaptive mode gets the records written after every
 * drain to measure throughput. Only this thread's decisions change; the rings and probes do not.
 *
 * <p>Counting without a shared hot counter: each ring counts what its owner produced and dropped;
 * this loop counts what it wrote and what the writer side dropped. At shutdown, records still in
 * rings after the final drain count as dropped (reason closed) by subtraction, so the trailer
 * always balances. A writer that learns only after {@code write} that a frame was lost (a broker
 * refusing it asynchronously) reports its records ({@link #droppedAfterWrite}); they move from
 * written to dropped, in the trailer if reported before {@link Writer#awaitDelivery} returned.
 *
 * <p>Definitions travel once, so a lost frame that carried some (dropped by the writer at once, or
 * reported lost later: {@link #definitionsLostAfterWrite}) would leave every later record using
 * them undecodable: before its next frame the loop then hands the writer every definition again,
 * in frames of their own (format.md, section 6).
 */
final class WriterLoop implements Runnable, WriterContext {
    /** Lifecycle: NEW until started, RUNNING, STOPPING once shutdown was requested, TERMINATED when done. */
    enum State { NEW, RUNNING, STOPPING, TERMINATED }

    /** The rings this loop drains and their producer-side counts (implemented by the pipeline). */
    interface Source {
        /** The current buffers (a snapshot array; the loop does not modify it). */
        ThreadBuffer[] buffers();

        /** Forgets a fully drained buffer of a dead thread, keeping its counts. */
        void release(ThreadBuffer b);

        /**
         * Adds the producer-side drops of every ring, live and released, to {@code drops} (indexed
         * by {@link DropReason#ordinal()}) and returns the records produced. Drops are read before
         * "produced" (each producer increments produced before a drop counter), so produced -
         * written - drops is never negative.
         */
        long producerCounts(long[] drops);
    }

    private static final DropReason[] REASONS = DropReason.values();

    private final Source source;
    private final Registry registry;
    private final Writer writer;
    private final Identity identity;
    private final int frameBytes;
    private final long flushIntervalNanos;
    private final Packing packing;
    /** Null in fill mode (partial frames go out every flush interval). */
    private WaitBound waitBound;
    private final FrameHeader header;
    private final Thread thread;
    /** Null unless compress=lz4: turns DATA frames into COMPRESSED ones here, on the writer thread. */
    private FrameCompressor compressor;

    private ByteBuffer frame;
    private int frameLimit;
    private long frameRecords;
    /** Bytes of the records in the current frame, as in the rings (no frame or block headers). */
    private long frameRecordBytes;
    /** Bytes of the records written (writer thread only): the adaptive packing's mean record size. */
    private long recordBytesWritten;
    private boolean frameHasBlocks;
    /** The current frame holds a registry block (writer thread only). */
    private boolean frameHasDefinitions;
    private ByteBuffer registryBuffer;
    /** Frames of the definitions sent again after a loss (see resendDefinitions). */
    private ByteBuffer resendBuffer;
    private ByteBuffer segmentEndBuffer;
    private long sequence;
    private boolean failed;
    private long[] limits = new long[16];
    private boolean[] deadAtSnapshot = new boolean[16];

    /** Per-probe counts for the java agent's overhead budget; null (not taken) unless enabled. */
    private volatile ProbeTally tally;

    private volatile State state = State.NEW;
    private boolean threadStarted;
    private volatile long closeDeadlineNanos = Long.MAX_VALUE;
    private volatile RecordCounts finalCounts;

    // ---- counters: written by the loop's thread only, read by anyone
    private volatile long framesWritten;
    private volatile long bytesWritten;
    private volatile long recordsWritten;
    private final AtomicLongArray recordsDropped = new AtomicLongArray(REASONS.length);
    /** Records the writer took and later reported lost (any thread): moved from written to dropped when counted. */
    private final AtomicLongArray droppedAfterWrite = new AtomicLongArray(REASONS.length);
    /** droppedAfterWrite as the trailer counted it; later reports adjust the final counts. */
    private long[] droppedAfterWriteAtFinal;
    /** Data records of the frame being handed to the writer (writer thread only). */
    private long recordsInFrame;
    /** Whether the frame being handed to the writer carries definitions (writer thread only). */
    private boolean definitionsInFrame;
    /**
     * A frame carrying definitions was lost (set by any thread, cleared by the writer thread):
     * every definition goes out again, in a frame of its own, before the next frame.
     */
    private volatile boolean resendDefinitions;

    WriterLoop(Source source, Registry registry, Writer writer, Identity identity, int frameBytes,
            long flushIntervalNanos) {
        this(source, registry, writer, identity, frameBytes, flushIntervalNanos, Packing.fill());
    }

    WriterLoop(Source source, Registry registry, Writer writer, Identity identity, int frameBytes,
            long flushIntervalNanos, Packing packing) {
        this.source = source;
        this.registry = registry;
        this.writer = writer;
        this.identity = identity;
        this.frameBytes = frameBytes;
        this.flushIntervalNanos = flushIntervalNanos;
        this.packing = packing;
        this.header = new FrameHeader(identity.agentId, identity.pid, identity.host);
        this.frameLimit = frameBytes;
        this.frame = ByteBuffer.allocateDirect(frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        header.open(frame, Format.FRAME_DATA);
        packing.fitFrames(frameBytes - header.headerBytes() - Format.BLOCK_HEADER_BYTES);
        this.thread = new Thread(this, "sonde-writer");
        thread.setDaemon(true);
    }

    // ---------------------------------------------------------------- lifecycle

    /** compress=lz4: DATA frames without definitions go out as COMPRESSED frames (format 2.4). Call before {@link #start}. */
    synchronized void compressFrames() {
        if (state != State.NEW) throw new IllegalStateException("compression is chosen before the writer loop starts");
        compressor = new FrameCompressor();
    }

    /** Starts the writer thread (once). */
    synchronized void start() {
        if (state != State.NEW) throw new IllegalStateException("writer loop already " + state);
        state = State.RUNNING;
        threadStarted = true;
        thread.start();
    }

    /** Wakes the writer thread (a producer's ring is half full, or full). */
    void wake() {
        LockSupport.unpark(thread);
    }

    State state() {
        return state;
    }

    /** True once the final drain, the trailer and closing the writer are done (or were given up). */
    boolean isTerminated() {
        return state == State.TERMINATED;
    }

    /**
     * Asks the loop to finish: one more drain, the last frame, the trailer, closing the writer.
     * Writers that retry (tcp) give up at 80 % of {@code timeoutMs} at the latest, leaving time for
     * the trailer; a tcp writer that is not connected gives up after one last attempt.
     */
    synchronized void requestStop(long timeoutMs) {
        if (state == State.NEW || state == State.RUNNING) {
            closeDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs) * 4 / 5;
            state = State.STOPPING;
            LockSupport.unpark(thread);
        }
    }

    /**
     * Waits at most {@code timeoutMs} for the loop to finish after {@link #requestStop}. A loop
     * whose thread never started (manual mode) finishes on the calling thread. Returns whether it
     * finished.
     */
    boolean awaitTermination(long timeoutMs) {
        synchronized (this) {
            if (!threadStarted) {
                if (state != State.TERMINATED) finish();
                return true;
            }
        }
        try {
            long timeout = Math.max(1, timeoutMs);
            thread.join(Math.max(1, timeout * 9 / 10));
            if (thread.isAlive()) {
                // stuck in I/O (e.g. a receiver that stopped reading): interrupting closes the
                // interruptible channel, the writer gives up and still finishes its bookkeeping
                thread.interrupt();
                thread.join(Math.max(1, timeout / 10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            SondeLog.warn("shutdown.timeout", "writer did not finish within shutdown.timeout.ms=" + timeoutMs
                    + "; the stream may lack its trailer");
            return false;
        }
        return true;
    }

    @Override
    public void run() {
        open();
        long nextFlush = System.nanoTime() + flushIntervalNanos;
        while (state == State.RUNNING) {
            long wakeAt = nextFlush;
            try {
                drain();
                long now = System.nanoTime();
                WaitBound wb = waitBound;
                if (wb == null) {
                    if (now - nextFlush >= 0) {
                        emitFrame();
                        if (!failed) writer.flush();
                        nextFlush = now + flushIntervalNanos;
                    }
                    wakeAt = nextFlush;
                } else {
                    // wait-bounded packing: a partial frame goes out when due, not every flush interval
                    if (wb.due(now)) emitFrame();
                    if (now - nextFlush >= 0) {
                        if (!failed) writer.flush();
                        nextFlush = now + flushIntervalNanos;
                    }
                    packing.observe(now, recordsWritten, recordBytesWritten);
                    wakeAt = wb.nextWake(nextFlush);
                }
            } catch (IOException | RuntimeException e) {
                fail("writing failed", e);
            }
            if (state == State.RUNNING) LockSupport.parkNanos(Math.max(1, wakeAt - System.nanoTime()));
        }
        finish();
    }

    void open() {
        if (packing.waitBounded()) waitBound = new WaitBound(packing.maxWaitNanos(), System.nanoTime());
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
        if (!failed) {
            try {
                writer.awaitDelivery(); // frames lost after write() are reported by now, for the trailer
            } catch (IOException | RuntimeException e) {
                SondeLog.warn("writer.delivery", "waiting for the writer's last deliveries failed: " + e);
            }
        }
        RecordCounts c = counts(true);
        droppedAfterWriteAtFinal = snapshot(droppedAfterWrite);
        finalCounts = c;
        if (!failed) {
            try {
                writeTrailer(c);
            } catch (IOException | RuntimeException e) {
                fail("cannot write the trailer", e);
            }
        }
        if (failed) {
            // the stream has no trailer: the log is the only place left for the final counts
            SondeLog.warn("writer.summary", "the stream ends without a trailer; final counts: " + c);
        }
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            SondeLog.warn("writer.close", "closing the writer failed: " + e);
        }
        state = State.TERMINATED;
    }

    private void fail(String what, Throwable e) {
        if (!failed) {
            failed = true;
            SondeLog.warn("writer.failed", what + " (" + e + "); further records are dropped and counted"
                    + " (reason writer failed)");
        }
    }

    // ---------------------------------------------------------------- counters

    /** Starts the per-probe tally (idempotent); records drained from now on are counted per probe. */
    synchronized ProbeTally enableTally() {
        if (tally == null) tally = new ProbeTally();
        return tally;
    }

    /** The packing decisions of this loop (degree, mode); read-only use outside the writer thread. */
    Packing packing() {
        return packing;
    }

    /** Id of the writer thread (its CPU time is part of what monitoring costs). */
    long threadId() {
        return thread.getId();
    }

    /** DATA frames the writer accepted. */
    long framesWritten() {
        return framesWritten;
    }

    /** Bytes of the DATA frames the writer accepted (headers included). */
    long bytesWritten() {
        return bytesWritten;
    }

    /** Data records in the DATA frames the writer accepted. */
    long recordsWritten() {
        return recordsWritten;
    }

    /** Data records this loop dropped for {@code reason} (only writer-side reasons are non-zero). */
    long recordsDropped(DropReason reason) {
        return recordsDropped.get(reason.ordinal());
    }

    private static long[] snapshot(AtomicLongArray a) {
        long[] s = new long[a.length()];
        for (int i = 0; i < s.length; i++) s[i] = a.get(i);
        return s;
    }

    private void countDropped(DropReason reason, long records) {
        int i = reason.ordinal();
        recordsDropped.lazySet(i, recordsDropped.get(i) + records); // single writer: this thread
    }

    /**
     * The pipeline's counters: the final ones once terminated, else a live sum. At shutdown
     * ({@code closing}), whatever is neither written nor dropped otherwise was left in the rings
     * and counts as dropped with reason closed.
     */
    RecordCounts counts() {
        RecordCounts f = finalCounts;
        if (f == null) return counts(false);
        // frames reported lost after the trailer (the writer gave up waiting at close) move from written to dropped
        long[] atFinal = droppedAfterWriteAtFinal;
        long[] drops = new long[REASONS.length];
        long late = 0;
        for (DropReason r : REASONS) {
            long d = droppedAfterWrite.get(r.ordinal()) - atFinal[r.ordinal()];
            drops[r.ordinal()] = f.dropped(r) + d;
            late += d;
        }
        return late == 0 ? f : new RecordCounts(f.produced(), f.written() - late, drops);
    }

    private RecordCounts counts(boolean closing) {
        long[] drops = new long[REASONS.length];
        long late = 0;
        for (DropReason r : REASONS) {
            long d = droppedAfterWrite.get(r.ordinal());
            drops[r.ordinal()] = recordsDropped(r) + d;
            late += d;
        }
        long written = recordsWritten - late;
        long produced = source.producerCounts(drops);
        if (closing) {
            int closed = DropReason.CLOSED.ordinal();
            long otherDrops = 0;
            for (int r = 0; r < drops.length; r++) {
                if (r != closed) otherDrops += drops[r];
            }
            drops[closed] = produced - written - otherDrops;
        }
        return new RecordCounts(produced, written, drops);
    }

    // ---------------------------------------------------------------- draining

    /** One pass over all rings. Returns the number of bytes consumed. */
    long drain() throws IOException {
        ThreadBuffer[] bufs = source.buffers();
        WaitBound wb = waitBound;
        if (wb != null) wb.drainStarted(System.nanoTime()); // before the positions are read (see WaitBound)
        if (limits.length < bufs.length) {
            limits = new long[bufs.length * 2];
            deadAtSnapshot = new boolean[bufs.length * 2];
        }
        for (int k = 0; k < bufs.length; k++) {
            // death first: a thread seen dead has published everything it will ever produce
            deadAtSnapshot[k] = bufs[k].ownerDead();
            limits[k] = bufs[k].writePosition();
        }
        List<byte[]> defs = registry.takePending();
        if (!defs.isEmpty()) appendRegistryBlock(defs);
        long consumed = 0;
        for (int k = 0; k < bufs.length; k++) {
            ThreadBuffer b = bufs[k];
            consumed += copyRecords(b, limits[k]);
            if (deadAtSnapshot[k] && b.readPosition() == limits[k]) {
                ProbeTally t = tally;
                if (t != null) t.forget(b);
                source.release(b);
            }
        }
        // a frame that reached its degree exactly at the end of the drain goes now, not with the next record
        if (wb != null && frameRecords >= packing.recordsPerFrame()) emitFrame();
        return consumed;
    }

    private void appendRegistryBlock(List<byte[]> defs) throws IOException {
        if (frameHasBlocks) {
            if (insertDefinitions(defs)) return;
            emitFrame(); // no room before the thread blocks: they go now, the definitions open the next frame
        }
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
                frameUsed();
                frameHasDefinitions = true;
            }
            frame.put(d);
        }
        if (block >= 0) FrameHeader.endBlock(frame, block);
    }

    /**
     * Puts definitions taken while the current frame already holds blocks at its start: into its
     * registry block if it has one (always its first block), else into a new first block. The
     * registry block comes first in a frame (format 4.1): receivers and the compressor tell frames
     * carrying definitions by their first block. The records already in the frame were drained
     * before these definitions were taken, so none of them uses one. Returns false, changing
     * nothing, when they do not fit. Slow path (new definitions are rare): it moves the blocks
     * through a temporary array.
     */
    private boolean insertDefinitions(List<byte[]> defs) {
        int bytes = 0;
        for (byte[] d : defs) bytes += d.length;
        int h = header.headerBytes();
        int registryBlock = frameHasDefinitions ? h : -1;
        int at = frameHasDefinitions ? h + Format.BLOCK_HEADER_BYTES + frame.getInt(h + RecordLayout.Block.BYTE_LENGTH) : h;
        int grow = frameHasDefinitions ? bytes : Format.BLOCK_HEADER_BYTES + bytes;
        int end = frame.position();
        if (end + grow > frameLimit) return false;
        byte[] moved = new byte[end - at];
        frame.get(at, moved);
        frame.position(at);
        if (registryBlock < 0) registryBlock = FrameHeader.beginBlock(frame, Format.REGISTRY_THREAD_ID);
        for (byte[] d : defs) frame.put(d);
        FrameHeader.endBlock(frame, registryBlock);
        frame.put(moved);
        frameHasDefinitions = true;
        return true;
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
        frameLimit = Math.max(frameBytes, frame.capacity());
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
        ProbeTally tally = this.tally;
        int degree = packing.recordsPerFrame(); // read once per ring: the writer thread alone changes it
        while (r < limit) {
            int i = (int) r & mask;
            byte type = ring[i];
            if (type == ThreadBuffer.PAD) {
                if (runLen > 0) {
                    putRun(ring, runStart, runLen, runRecords);
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
            boolean full = frame.position() + runLen + size > frameLimit
                    || (frameRecords + runRecords >= degree && Format.isDataRecord(type));
            if (block < 0 || full) {
                // close the run and block, emit the full frame, open a new block
                if (runLen > 0) {
                    putRun(ring, runStart, runLen, runRecords);
                    runLen = 0;
                    runRecords = 0;
                }
                if (block >= 0) {
                    FrameHeader.endBlock(frame, block);
                    block = -1;
                    b.releaseTo(r); // copied: let the producer reuse the space while we write
                }
                if (full) emitFrame(); // no-op on an empty frame (a new ring's first record)
                ensureRoom(Format.BLOCK_HEADER_BYTES + size);
                block = FrameHeader.beginBlock(frame, b.threadId());
                frameUsed();
            }
            if (runLen > 0 && runStart + runLen != i) {
                // the ring wrapped exactly at its end (no pad byte): the run is not contiguous
                putRun(ring, runStart, runLen, runRecords);
                runLen = 0;
                runRecords = 0;
            }
            if (runLen == 0) runStart = i;
            runLen += size;
            if (Format.isDataRecord(type)) runRecords++;
            if (tally != null) tally.record(b, type, ring, i);
            r += size;
        }
        if (runLen > 0) putRun(ring, runStart, runLen, runRecords);
        if (block >= 0) FrameHeader.endBlock(frame, block);
        b.releaseTo(r);
        return r - start;
    }

    /** Copies a contiguous run of whole records from a ring into the current block. */
    private void putRun(byte[] ring, int start, int length, long records) {
        frame.put(ring, start, length);
        frameRecords += records;
        frameRecordBytes += length;
    }

    /** The current frame got a block: it is not empty any more, and its wait may have started. */
    private void frameUsed() {
        if (!frameHasBlocks) {
            frameHasBlocks = true;
            WaitBound wb = waitBound;
            if (wb != null) wb.frameOpened();
        }
    }

    private int recordBytes(byte type, byte[] ring, int i) {
        if (type == Format.EVENT) {
            int at = i + RecordLayout.Event.EVENT_TYPE_ID;
            int id = (ring[at] & 0xFF) | (ring[at + 1] & 0xFF) << 8 | (ring[at + 2] & 0xFF) << 16 | (ring[at + 3] & 0xFF) << 24;
            return registry.eventRecordBytes(id);
        }
        return Format.fixedRecordBytes(type);
    }

    /** Hands the current frame to the writer if it holds anything, then opens the next one. */
    void emitFrame() throws IOException {
        if (!frameHasBlocks) return;
        long records = frameRecords;
        long recordBytes = frameRecordBytes;
        boolean definitions = frameHasDefinitions;
        frameRecords = 0;
        frameRecordBytes = 0;
        frameHasBlocks = false;
        frameHasDefinitions = false;
        WaitBound wb = waitBound;
        if (wb != null) wb.frameSent();
        try {
            if (failed) {
                countDropped(DropReason.WRITER_FAILED, records);
            } else {
                try {
                    if (resendDefinitions) resendDefinitions(); // before any record that may need them
                    ByteBuffer out = compressor == null ? frame : compressor.compress(frame);
                    int bytes = out.position();
                    recordsInFrame = records;
                    definitionsInFrame = definitions;
                    try {
                        writer.write(out);
                    } finally {
                        recordsInFrame = 0;
                        definitionsInFrame = false;
                    }
                    recordsWritten += records;
                    recordBytesWritten += recordBytes;
                    bytesWritten += bytes;
                    framesWritten++;
                } catch (FrameDroppedException e) {
                    countDropped(e.reason(), records); // this frame only: the writer stays usable (it reported why)
                    if (definitions) resendDefinitions = true; // later records may use them
                } catch (IOException | RuntimeException e) {
                    countDropped(DropReason.WRITER_FAILED, records);
                    fail("writing a frame failed", e);
                }
            }
        } finally {
            if (frame.capacity() != frameBytes) {
                // the buffer was grown for one huge definition; go back to the configured size
                frame = ByteBuffer.allocateDirect(frameBytes).order(ByteOrder.LITTLE_ENDIAN);
                frameLimit = frameBytes;
            }
            header.open(frame, Format.FRAME_DATA);
        }
    }

    private void writeTrailer(RecordCounts c) throws IOException {
        header.open(frame, Format.FRAME_TRAILER);
        FrameHeader.putTrailer(frame, c.produced(), c.written(), c.dropsByCode());
        writer.write(frame);
        writer.flush();
    }

    // ---------------------------------------------------------------- WriterContext

    @Override
    public void seal(ByteBuffer f) {
        header.seal(f, sequence++, identity.wallNanos.getAsLong(), identity.monoNanos.getAsLong());
    }

    @Override
    public void reseal(ByteBuffer f) {
        header.reseal(f, sequence++, identity.wallNanos.getAsLong(), identity.monoNanos.getAsLong());
    }

    @Override
    public void registryFrames(FrameSink sink) throws IOException {
        registryFrames(sink, -1);
    }

    @Override
    public void repeatedRegistryFrames(long sequence, FrameSink sink) throws IOException {
        registryFrames(sink, sequence);
    }

    /** Registry frames numbered as usual ({@code repeatOf} -1) or flagged as repeats carrying {@code repeatOf}. */
    private void registryFrames(FrameSink sink, long repeatOf) throws IOException {
        if (registryBuffer == null) {
            registryBuffer = ByteBuffer.allocateDirect(frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        definitionFrames(registry.allAndClearPending(), registryBuffer, b -> {
            sealRegistry(b, repeatOf);
            long records = recordsInFrame;
            boolean definitions = definitionsInFrame;
            recordsInFrame = 0; // a writer may make these inside write() (a new segment): they are not that frame
            definitionsInFrame = true;
            try {
                sink.accept(b);
            } finally {
                recordsInFrame = records;
                definitionsInFrame = definitions;
            }
        });
    }

    /**
     * Puts {@code defs} into the registry blocks of DATA frames built in {@code buffer} (a larger
     * one for a definition that does not fit) and passes each frame, unsealed, to {@code out}.
     */
    private void definitionFrames(List<byte[]> defs, ByteBuffer buffer, FrameSink out) throws IOException {
        ByteBuffer b = buffer;
        header.open(b, Format.FRAME_DATA);
        int block = FrameHeader.beginBlock(b, Format.REGISTRY_THREAD_ID);
        int inBlock = 0;
        for (byte[] d : defs) {
            if (inBlock > 0 && b.position() + d.length > b.capacity()) {
                FrameHeader.endBlock(b, block);
                out.accept(b);
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
        out.accept(b);
    }

    /**
     * A frame carrying definitions was lost: every definition goes to the writer again, in DATA
     * frames of their own, so that the records after the loss can be read. Their own buffer: a
     * writer may build registry frames inside {@code write} (a file writer opening a new segment).
     * If the writer drops one at once, or reports one lost before it returns (as writer=kafka does,
     * which waits for the broker's answer to frames carrying definitions), the flag stays set and
     * the caller drops the frame it was about to send, whose records could need them.
     */
    private void resendDefinitions() throws IOException {
        resendDefinitions = false;
        if (resendBuffer == null) {
            resendBuffer = ByteBuffer.allocateDirect(frameBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        try {
            definitionFrames(registry.all(), resendBuffer, b -> {
                int bytes = b.position();
                definitionsInFrame = true;
                try {
                    writer.write(b);
                } finally {
                    definitionsInFrame = false;
                }
                bytesWritten += bytes;
                framesWritten++;
            });
        } catch (FrameDroppedException e) {
            resendDefinitions = true;
            throw e;
        }
        if (resendDefinitions) {
            throw new FrameDroppedException("the definitions sent again after a lost frame were lost too", null);
        }
    }

    private void sealRegistry(ByteBuffer b, long repeatOf) {
        if (repeatOf < 0) {
            seal(b);
        } else {
            b.put(Format.FRAME_OFF_FLAGS, (byte) Format.FRAME_FLAG_REPEAT);
            header.seal(b, repeatOf, identity.wallNanos.getAsLong(), identity.monoNanos.getAsLong());
        }
    }

    @Override
    public ByteBuffer segmentEndFrame(int nextSegmentIndex) {
        if (segmentEndBuffer == null) {
            segmentEndBuffer = ByteBuffer.allocateDirect(header.headerBytes() + RecordLayout.SegmentEndPayload.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
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
        return identity.agentId;
    }

    @Override
    public boolean closing() {
        State s = state;
        return s == State.STOPPING || s == State.TERMINATED;
    }

    @Override
    public long closeDeadlineNanos() {
        return closeDeadlineNanos;
    }

    @Override
    public long recordsInFrame() {
        return recordsInFrame;
    }

    @Override
    public boolean definitionsInFrame() {
        return definitionsInFrame;
    }

    @Override
    public void definitionsLostAfterWrite() {
        resendDefinitions = true;
    }

    @Override
    public void droppedAfterWrite(DropReason reason, long records) {
        if (records < 0) throw new IllegalArgumentException("records lost after write must be >= 0, got " + records);
        droppedAfterWrite.addAndGet(reason.ordinal(), records);
    }
}
