package io.sonde.core.buffer;

import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.RecordLayout;
import io.sonde.format.RecordLayout.Cpu;
import io.sonde.format.RecordLayout.ExitException;
import io.sonde.format.RecordLayout.ExitExceptionCpu;
import io.sonde.format.RecordLayout.Gap;
import io.sonde.format.RecordLayout.HandoffStart;
import io.sonde.format.RecordLayout.Timed;
import io.sonde.format.RecordLayout.TraceStart;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.nio.ByteOrder;
import java.util.concurrent.locks.LockSupport;

// Field layout: the producer's fields, the published write position and the consumer's read
// position live in separate superclasses with 128 bytes of padding between them. The JVM lays out
// superclass fields first, so this keeps the producer's frequently written fields, the published
// index and the consumer's index on different cache lines (no false sharing).
abstract class ProducerFields {
    // ---- written by the owning thread only
    /** Next write position (unwrapped, grows forever; index = pos & mask). */
    long pos;
    /** Claims ending at or below this position take the fast path (no read-index load). */
    long fastLimit;
    /** Last read position seen by the producer. */
    long cachedRead;
    /** Read position at which the producer last woke the writer (one wake-up per crossing). */
    long wokeAt = -1;
    /** Data records dropped since the last record that fitted (written as GAP before the next). */
    int pendingGap;
    /**
     * True after a bounded block wait timed out: while the ring stays full, records drop at once
     * (reason buffer full) instead of waiting again; the next record that fits clears it.
     */
    boolean overflowing;

    // ---- trace context (owner only)
    long traceId;
    long traceCounter;
    int nextOrder;
    int depth;
    int[] orderStack = new int[32];
    long traceParentId;
    int traceParentOrder = -1;
    /** Hand-off time of the running trace (written in its HANDOFF_START), or NO_HANDOFF_TIME. */
    long traceHandoffTime = Long.MIN_VALUE;
    /** Parent for the next trace this thread starts (set for executor hand-off). */
    long parentTraceId;
    int parentOrderIndex = -1;
    /** Hand-off time for the next trace this thread starts; used by one trace only. */
    long parentHandoffTime = Long.MIN_VALUE;
    /** True: the parent above applies to every trace this thread starts until it is reset (a task's traces). */
    boolean parentForEveryTrace;

    // ---- counters: written by the owner (opaque/release stores), read by anyone
    long produced;
    long droppedFull;
    long droppedNoBuffer;
    long droppedClosed;
}

abstract class Pad1 extends ProducerFields {
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

abstract class PublishedField extends Pad1 {
    /** Write position published to the consumer with a release store after each record. */
    volatile long published;
}

abstract class Pad2 extends PublishedField {
    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;
}

abstract class ConsumerFields extends Pad2 {
    /** Read position published by the consumer with a release store after each drain. */
    volatile long readPos;
}

abstract class Pad3 extends ConsumerFields {
    long r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15, r16;
}

/**
 * One thread's single-producer/single-consumer byte ring plus that thread's trace context and
 * counters. The owning thread encodes records in place (no allocation, no lock); the writer thread
 * drains them.
 *
 * <p>Protocol: the producer claims space, writes the record bytes with plain stores, then
 * publishes the new write position with a release store; the consumer reads it with an acquire
 * load, so it sees complete records. The consumer copies records out and publishes its read
 * position with a release store; the producer re-reads it (acquire) only when its cached value
 * says the claim would cross the half-full or full mark. A record never wraps: if it does not fit
 * before the ring's end, a single 0x00 byte is written there, meaning "padding up to the end", and
 * the record starts at index 0.
 *
 * <p>A buffer with capacity 0 is the placeholder of a thread that got no ring because the
 * {@code buffers.max} limit was reached: every record it produces is dropped with reason
 * "no buffer", but the thread's trace context still works.
 */
public final class ThreadBuffer extends Pad3 {
    /** Type byte meaning "the rest of the ring up to its end is padding". */
    public static final byte PAD = 0;
    /** "No hand-off time": the trace starts with a TRACE_START (a HANDOFF_START carries the time). */
    public static final long NO_HANDOFF_TIME = Long.MIN_VALUE;

    static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INTS =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle PUBLISHED;
    private static final VarHandle READ;
    private static final VarHandle PRODUCED;
    private static final VarHandle DROPPED_FULL;
    private static final VarHandle DROPPED_NO_BUFFER;
    private static final VarHandle DROPPED_CLOSED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PUBLISHED = l.findVarHandle(PublishedField.class, "published", long.class);
            READ = l.findVarHandle(ConsumerFields.class, "readPos", long.class);
            PRODUCED = l.findVarHandle(ProducerFields.class, "produced", long.class);
            DROPPED_FULL = l.findVarHandle(ProducerFields.class, "droppedFull", long.class);
            DROPPED_NO_BUFFER = l.findVarHandle(ProducerFields.class, "droppedNoBuffer", long.class);
            DROPPED_CLOSED = l.findVarHandle(ProducerFields.class, "droppedClosed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins before a blocked producer starts parking. */
    private static final int SPINS = 100;
    /** Park step of a blocked producer; short so it notices space quickly. */
    private static final long PARK_NANOS = 50_000L;

    private final byte[] ring;
    private final int capacity;
    private final int mask;
    private final int half;
    private final boolean dropWhenFull;
    /** Longest wait of a blocked producer before it drops (policy block); negative = no limit. */
    private final long blockNanos;
    private final RingHost host;
    private final long threadId;
    private final WeakReference<Thread> thread;
    /** Buffer ordinal in the high 32 bits of this thread's trace ids. */
    private long traceIdBase;
    private final EventCursor events = new EventCursor(this);
    private Object attachment;

    /**
     * @param capacity ring bytes, a power of two (0 for the no-buffer placeholder)
     * @param dropWhenFull true for policy {@code drop}, false for {@code block}
     * @param ordinal this buffer's creation ordinal in its pipeline (1, 2, ...): trace ids are
     *     {@code ordinal << 32 | n} with a per-thread counter n = 1, 2, ..., so they are unique per
     *     agent without a shared counter
     */
    public ThreadBuffer(int capacity, boolean dropWhenFull, RingHost host, Thread owner, long threadId, int ordinal) {
        this(capacity, dropWhenFull, -1L, host, owner, threadId, ordinal);
    }

    /**
     * Like the constructor above, with a bounded wait for policy {@code block}.
     *
     * @param blockNanos when the ring is full and {@code dropWhenFull} is false: how long the
     *     producer waits for space before it drops the record (reason buffer full) and every
     *     further record until one fits again; negative = wait as long as it takes
     */
    public ThreadBuffer(int capacity, boolean dropWhenFull, long blockNanos, RingHost host, Thread owner,
            long threadId, int ordinal) {
        if (capacity != 0 && (capacity < 64 || Integer.bitCount(capacity) != 1)) {
            throw new IllegalArgumentException("ring capacity must be a power of two >= 64: " + capacity);
        }
        this.ring = new byte[capacity];
        this.capacity = capacity;
        this.mask = capacity == 0 ? 0 : capacity - 1;
        this.half = capacity / 2;
        this.dropWhenFull = dropWhenFull;
        this.blockNanos = blockNanos;
        this.host = host;
        this.threadId = threadId;
        this.thread = new WeakReference<>(owner);
        this.traceIdBase = ((long) ordinal) << 32;
        this.fastLimit = capacity == 0 ? Long.MIN_VALUE : half;
    }

    // =====================================================================================
    // Producer side (owning thread only)
    // =====================================================================================

    /** Largest record (with HANDOFF_START and GAP prefixes) a ring of this capacity accepts. */
    public static int maxRecordBytes(int capacity) {
        return capacity / 2 - Format.GAP_BYTES - Format.HANDOFF_START_BYTES;
    }

    /** Records a method entry; starts a trace (TRACE_START first) when the thread is at depth 0. */
    public void enter(int probeId, long time) {
        int d = depth;
        pushOrder(d);
        if (d == 0) {
            int i = claimWithTraceStart(Format.ENTER_BYTES);
            if (i < 0) return;
            putProbeRecord(i, Format.ENTER, probeId, time);
        } else {
            int i = claim(Format.ENTER_BYTES);
            if (i < 0) return;
            putProbeRecord(i, Format.ENTER, probeId, time);
        }
        publish();
    }

    /** Like {@link #enter} with the thread's CPU time. */
    public void enterCpu(int probeId, long time, long cpu) {
        int d = depth;
        pushOrder(d);
        int i;
        if (d == 0) {
            i = claimWithTraceStart(Format.ENTER_CPU_BYTES);
            if (i < 0) return;
        } else {
            i = claim(Format.ENTER_CPU_BYTES);
            if (i < 0) return;
        }
        putProbeRecord(i, Format.ENTER_CPU, probeId, time);
        LONGS.set(ring, i + Cpu.CPU_TIME, cpu);
        publish();
    }

    /** Records a normal method exit. */
    public void exit(int probeId, long time) {
        pop();
        int i = claim(Format.EXIT_BYTES);
        if (i < 0) return;
        putProbeRecord(i, Format.EXIT, probeId, time);
        publish();
    }

    /** Records a normal method exit with the thread's CPU time. */
    public void exitCpu(int probeId, long time, long cpu) {
        pop();
        int i = claim(Format.EXIT_CPU_BYTES);
        if (i < 0) return;
        putProbeRecord(i, Format.EXIT_CPU, probeId, time);
        LONGS.set(ring, i + Cpu.CPU_TIME, cpu);
        publish();
    }

    /** Records an exit by exception; {@code exceptionStringId} names the exception class. */
    public void exitException(int probeId, long time, int exceptionStringId) {
        pop();
        int i = claim(Format.EXIT_EXCEPTION_BYTES);
        if (i < 0) return;
        putProbeRecord(i, Format.EXIT_EXCEPTION, probeId, time);
        INTS.set(ring, i + ExitException.EXCEPTION_STRING_ID, exceptionStringId);
        publish();
    }

    /** Records an exit by exception with the thread's CPU time. */
    public void exitExceptionCpu(int probeId, long time, long cpu, int exceptionStringId) {
        pop();
        int i = claim(Format.EXIT_EXCEPTION_CPU_BYTES);
        if (i < 0) return;
        putProbeRecord(i, Format.EXIT_EXCEPTION_CPU, probeId, time);
        LONGS.set(ring, i + Cpu.CPU_TIME, cpu);
        INTS.set(ring, i + ExitExceptionCpu.EXCEPTION_STRING_ID, exceptionStringId);
        publish();
    }

    /**
     * Claims space for an EVENT record of {@code recordBytes} bytes (header included) and writes its
     * header. Returns the ring index of the first field value, or -1 if the record was dropped.
     * The caller copies the field values in right away and then calls {@link #publish()}, with no
     * other record of this thread in between.
     */
    public int beginEvent(int eventTypeId, long time, int recordBytes) {
        int i = claim(recordBytes);
        if (i < 0) return -1;
        putProbeRecord(i, Format.EVENT, eventTypeId, time);
        return i + RecordLayout.Event.FIELDS;
    }

    /** Copies {@code n} bytes of {@code src} into the ring at {@code index} (inside a claimed record). */
    void putBytes(int index, byte[] src, int n) {
        System.arraycopy(src, 0, ring, index, n);
    }

    public void putByte(int index, byte v) {
        ring[index] = v;
    }

    public void putInt(int index, int v) {
        INTS.set(ring, index, v);
    }

    public void putLong(int index, long v) {
        LONGS.set(ring, index, v);
    }

    /** Publishes everything claimed so far to the consumer. */
    public void publish() {
        // Release store: the record bytes written above become visible before the new position.
        PUBLISHED.setRelease(this, pos);
    }

    private void putProbeRecord(int i, byte type, int id, long time) {
        byte[] r = ring;
        r[i + RecordLayout.TYPE] = type;
        INTS.set(r, i + Timed.ID, id);
        LONGS.set(r, i + Timed.TIME, time);
    }

    /**
     * Claims a trace start followed by {@code recordBytes} for the trace's first record and writes
     * the trace start: a TRACE_START, or a HANDOFF_START (8 bytes more, the hand-off time) when the
     * trace is work handed over with its time. Returns the index of the first record, or -1.
     */
    private int claimWithTraceStart(int recordBytes) {
        long handoff = traceHandoffTime;
        int start = handoff == NO_HANDOFF_TIME ? Format.TRACE_START_BYTES : Format.HANDOFF_START_BYTES;
        int i = claim(start + recordBytes);
        if (i < 0) return -1;
        byte[] r = ring;
        // TRACE_START and HANDOFF_START share their first three fields (RecordLayout.HandoffStart)
        LONGS.set(r, i + TraceStart.TRACE_ID, traceId);
        LONGS.set(r, i + TraceStart.PARENT_TRACE_ID, traceParentId);
        INTS.set(r, i + TraceStart.PARENT_ORDER_INDEX, traceParentOrder);
        if (handoff == NO_HANDOFF_TIME) {
            r[i + RecordLayout.TYPE] = Format.TRACE_START;
        } else {
            r[i + RecordLayout.TYPE] = Format.HANDOFF_START;
            LONGS.set(r, i + HandoffStart.HANDOFF_TIME, handoff);
        }
        return i + start;
    }

    /** Trace bookkeeping of an ENTER at depth {@code d}; returns the execution order index. */
    private int pushOrder(int d) {
        int order;
        if (d == 0) {
            // a new trace: its id and parent are fixed now, even if its TRACE_START is dropped
            order = 0;
            nextOrder = 1;
            long n = ++traceCounter;
            if (n > 0xFFFF_FFFFL) {
                // counter exhausted (after 2^32 traces): continue under a fresh ordinal
                traceIdBase = ((long) host.nextOrdinal()) << 32;
                traceCounter = n = 1;
            }
            traceId = traceIdBase | n;
            traceParentId = parentTraceId;
            traceParentOrder = parentOrderIndex;
            // the hand-off time belongs to the first trace the handed-over work starts: a later
            // one of the same task (forEveryTrace) did not wait for the hand-off
            traceHandoffTime = parentHandoffTime;
            parentHandoffTime = NO_HANDOFF_TIME;
            if (!parentForEveryTrace) {
                parentTraceId = 0;
                parentOrderIndex = -1;
            }
        } else {
            order = nextOrder++;
        }
        int[] s = orderStack;
        if (d >= s.length) s = growOrderStack(d);
        s[d] = order;
        depth = d + 1;
        return order;
    }

    private int[] growOrderStack(int d) {
        int[] n = new int[Math.max(d + 1, orderStack.length * 2)];
        System.arraycopy(orderStack, 0, n, 0, orderStack.length);
        orderStack = n;
        return n;
    }

    private void pop() {
        int d = depth;
        if (d > 0) depth = d - 1;
    }

    /**
     * Claims {@code n} contiguous bytes for one data record (with its TRACE_START prefix, if any)
     * and counts it as produced. Returns the ring index to write at, or -1 if the record is dropped
     * (it is then counted by reason).
     */
    private int claim(int n) {
        // Opaque store: a plain store the JIT cannot elide; readers of the counters at run time
        // see a recent value, and the release store in publish() orders it before the record.
        PRODUCED.setOpaque(this, produced + 1);
        long p = pos;
        int i = (int) p & mask;
        if (p + n <= fastLimit && i + n <= capacity) {
            pos = p + n;
            return i;
        }
        return claimSlow(n);
    }

    private int claimSlow(int n) {
        if (capacity == 0) {
            DROPPED_NO_BUFFER.setRelease(this, droppedNoBuffer + 1);
            return -1;
        }
        int spins = 0;
        long blockedSince = 0; // set at the first park
        for (; ; ) {
            long p = pos;
            int i = (int) p & mask;
            int gap = pendingGap != 0 ? Format.GAP_BYTES : 0;
            int need = n + gap;
            int skip = i + need > capacity ? capacity - i : 0;
            long r = (long) READ.getAcquire(this);
            cachedRead = r;
            if (p - r + skip + need <= capacity) {
                if (skip > 0) {
                    ring[i] = PAD;
                    p += skip;
                    i = 0;
                }
                if (gap > 0) {
                    ring[i + RecordLayout.TYPE] = Format.GAP;
                    INTS.set(ring, i + Gap.DROPPED, pendingGap);
                    pendingGap = 0;
                    i += gap;
                    p += gap;
                }
                pos = p + n;
                overflowing = false;
                long used = pos - r;
                if (used < half) {
                    fastLimit = r + half;
                } else {
                    fastLimit = r + capacity;
                    wake(r);
                }
                return i;
            }
            // The ring is full.
            wake(r);
            if (host.isClosed()) {
                DROPPED_CLOSED.setRelease(this, droppedClosed + 1);
                return -1;
            }
            if (dropWhenFull || overflowing) {
                return dropFull();
            }
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
            } else {
                long now = System.nanoTime();
                if (blockedSince == 0) {
                    blockedSince = now;
                } else if (blockNanos >= 0 && now - blockedSince >= blockNanos) {
                    // the writer has not made room in time (a dead receiver, a stalled disk):
                    // stop holding the application up; drop until the ring has room again
                    overflowing = true;
                    return dropFull();
                }
                LockSupport.parkNanos(PARK_NANOS);
                wokeAt = -1; // still full after a park: wake the writer again
            }
        }
    }

    /** Counts the claimed record as dropped (buffer full); a GAP goes before the next record that fits. */
    private int dropFull() {
        DROPPED_FULL.setRelease(this, droppedFull + 1);
        if (pendingGap != -1) pendingGap++; // u32 count, saturates at 2^32-1
        fastLimit = Long.MIN_VALUE; // next claim must go through here to write the GAP
        return -1;
    }

    /**
     * Accounts {@code n} data records as dropped because the ring was full, exactly as the drop
     * policy does (counted, then a GAP before the next record). For deterministic tests that need
     * drops at a point where the scenario's records would still fit.
     */
    void dropAsFull(int n) {
        for (int k = 0; k < n; k++) {
            PRODUCED.setOpaque(this, produced + 1);
            DROPPED_FULL.setRelease(this, droppedFull + 1);
            if (pendingGap != -1) pendingGap++;
        }
        fastLimit = Long.MIN_VALUE;
    }

    private void wake(long readPosition) {
        if (wokeAt != readPosition) {
            wokeAt = readPosition;
            host.wakeWriter();
        }
    }

    /** The owner's reusable event writer. */
    public EventCursor events() {
        return events;
    }

    /**
     * An object the layer above binds to this thread's buffer (the API keeps its per-thread event
     * writer here, so it needs no thread-local lookup of its own). Owner thread only; null until set.
     */
    public Object attachment() {
        return attachment;
    }

    /** Sets {@link #attachment()} (owner thread only). */
    public void attach(Object value) {
        attachment = value;
    }

    // ---- trace context (owner thread)

    /** Id of the trace the thread is in, or 0 when it is not inside a probed method. */
    public long traceId() {
        return depth > 0 ? traceId : 0L;
    }

    /** Execution order index of the innermost active method execution, or -1 outside a trace. */
    public int orderIndex() {
        int d = depth;
        return d > 0 ? orderStack[d - 1] : -1;
    }

    /** Number of active probed method executions on this thread (0 outside a trace). */
    public int depth() {
        return depth;
    }

    /**
     * Makes the next trace this thread starts a child of the given trace (written in its
     * TRACE_START). Has no effect on a trace already running on this thread.
     */
    public void setParent(long parentTraceId, int parentOrderIndex) {
        setParent(parentTraceId, parentOrderIndex, false);
    }

    /**
     * Like {@link #setParent(long, int)}; with {@code forEveryTrace} the parent applies to every
     * trace the thread starts until the next {@code setParent} call (the java agent sets it for
     * the duration of an executor task, so each top-level call of the task is linked, and resets
     * it with {@code setParent(0, -1)} when the task ends).
     */
    public void setParent(long parentTraceId, int parentOrderIndex, boolean forEveryTrace) {
        setParent(parentTraceId, parentOrderIndex, NO_HANDOFF_TIME, forEveryTrace);
    }

    /**
     * Like {@link #setParent(long, int, boolean)}, with the time the parent handed the work over
     * ({@code System.nanoTime()} on the handing thread, or {@link #NO_HANDOFF_TIME}): the next
     * trace this thread starts then opens with a HANDOFF_START carrying it, so the wait between
     * hand-off and start is known. The time applies to that one trace; further traces of the same
     * work ({@code forEveryTrace}) carry the parent only.
     */
    public void setParent(long parentTraceId, int parentOrderIndex, long handoffTime, boolean forEveryTrace) {
        this.parentTraceId = parentTraceId;
        this.parentOrderIndex = parentOrderIndex;
        this.parentHandoffTime = handoffTime;
        this.parentForEveryTrace = forEveryTrace;
    }

    /** Parent trace id set for the next trace(s) by {@link #setParent}, 0 when none (so a hand-off can restore it). */
    public long pendingParentTraceId() {
        return parentTraceId;
    }

    /** Parent order index set by {@link #setParent}, -1 when none. */
    public int pendingParentOrderIndex() {
        return parentOrderIndex;
    }

    /** Hand-off time set by {@link #setParent} and not yet used by a trace, or {@link #NO_HANDOFF_TIME}. */
    public long pendingHandoffTime() {
        return parentHandoffTime;
    }

    /** Whether the parent set by {@link #setParent} applies to every trace the thread starts. */
    public boolean pendingParentForEveryTrace() {
        return parentForEveryTrace;
    }

    // =====================================================================================
    // Consumer side (writer thread) and counters
    // =====================================================================================

    public byte[] ring() {
        return ring;
    }

    public int capacity() {
        return capacity;
    }

    public long threadId() {
        return threadId;
    }

    /** True once the owning thread has terminated (then nothing more will be produced). */
    public boolean ownerDead() {
        Thread t = thread.get();
        return t == null || !t.isAlive();
    }

    /** The published write position (acquire: the records before it are complete). */
    public long writePosition() {
        return (long) PUBLISHED.getAcquire(this);
    }

    /** The consumer's read position. */
    public long readPosition() {
        return (long) READ.getAcquire(this);
    }

    /** Frees the ring up to {@code position} (consumer only; release so the copy happens first). */
    public void releaseTo(long position) {
        READ.setRelease(this, position);
    }

    public long produced() {
        return (long) PRODUCED.getOpaque(this);
    }

    /**
     * Records this thread dropped for {@code reason}. A ring counts the producer-side reasons
     * (buffer full, closed, no buffer); the writer-side ones are counted by the writer thread, so
     * they are 0 here.
     */
    public long dropped(DropReason reason) {
        switch (reason) {
            case BUFFER_FULL: return (long) DROPPED_FULL.getAcquire(this);
            case CLOSED: return (long) DROPPED_CLOSED.getAcquire(this);
            case NO_BUFFER: return (long) DROPPED_NO_BUFFER.getAcquire(this);
            default: return 0L;
        }
    }
}
