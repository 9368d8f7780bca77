package io.sonde.core.pipeline;

import io.sonde.api.Counters;
import io.sonde.core.buffer.RingHost;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.probe.ProbeRuntime;
import io.sonde.core.probe.Probes;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.Writers;
import io.sonde.format.Format;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One running monitor's in-process pipeline: the registry, the per-thread rings, the writer thread
 * ("sonde-writer") and the writer plug-in, the counters and the shutdown logic.
 *
 * <p>Counting without a shared hot counter: each ring counts what its owner produced and dropped;
 * the writer thread counts what it wrote. Totals are sums. At close, records still in rings after
 * the final drain count as dropped (reason closed) by subtraction, so the trailer always balances.
 */
public final class Pipeline implements RingHost {
    private final Registry registry = new Registry();
    private final ProbeRuntime runtime;
    private final SondeConfig config;
    final Identity identity;
    final Writer writer;
    final int ringBytes;
    private final int maxRings;
    private final boolean dropWhenFull;
    final long flushIntervalNanos;
    final int frameBytes;
    private final long shutdownTimeoutMs;

    private final Object lock = new Object();
    private final ArrayList<ThreadBuffer> buffers = new ArrayList<>();
    /** Copy of {@link #buffers} for the writer thread, rebuilt when the list changes. */
    private volatile ThreadBuffer[] bufferArray = new ThreadBuffer[0];
    private int liveRings;
    private int ordinals;
    // counters of released buffers (guarded by lock)
    private long retiredProduced, retiredFull, retiredNoBuffer, retiredClosed;
    // written by the writer thread only
    volatile long written;
    volatile long droppedWriterFailed;

    private volatile boolean closed;
    volatile long closeDeadlineNanos = Long.MAX_VALUE;
    private final WriterLoop loop;
    private final Thread writerThread;
    private final Thread shutdownHook;
    private volatile boolean closeStarted;
    private final boolean manual;

    /** Starts a pipeline with the writer and identity the configuration names. */
    public static Pipeline start(SondeConfig config) {
        return new Pipeline(config, Writers.create(config), Identity.of(config.agentIdOrRandom()), true);
    }

    /**
     * Starts a pipeline with an explicit writer and identity (tests and embedders). It becomes the
     * target of the static probe entry points until closed.
     *
     * @param shutdownHook whether to register a JVM shutdown hook that closes the pipeline
     */
    public Pipeline(SondeConfig config, Writer writer, Identity identity, boolean shutdownHook) {
        this(config, writer, identity, shutdownHook, false);
    }

    /**
     * @param manual true: no writer thread runs; the caller drives opening, draining and frame
     *     emission through the package-private {@code manual*} methods, and close() finishes on the
     *     calling thread (deterministic tests, e.g. the golden files)
     */
    Pipeline(SondeConfig config, Writer writer, Identity identity, boolean shutdownHook, boolean manual) {
        this.manual = manual;
        this.config = config;
        this.identity = identity;
        this.writer = writer;
        this.ringBytes = config.getInt(ConfigKey.BUFFER_BYTES);
        this.maxRings = config.getInt(ConfigKey.BUFFERS_MAX);
        this.dropWhenFull = config.get(ConfigKey.POLICY).equals("drop");
        this.flushIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.getLong(ConfigKey.FLUSH_INTERVAL_MS));
        this.frameBytes = config.getInt(ConfigKey.FRAME_BYTES);
        this.shutdownTimeoutMs = config.getLong(ConfigKey.SHUTDOWN_TIMEOUT_MS);
        this.runtime = new ProbeRuntime(this);
        String cpu = config.get(ConfigKey.CPU_TIME);
        runtime.setCpuMode(cpu.equals("on") ? ProbeRuntime.CPU_ON
                : cpu.equals("roots") ? ProbeRuntime.CPU_ROOTS : ProbeRuntime.CPU_OFF);
        Probes.activate(runtime);
        this.loop = new WriterLoop(this);
        this.writerThread = new Thread(loop, "sonde-writer");
        writerThread.setDaemon(true);
        if (!manual) writerThread.start();
        if (shutdownHook) {
            this.shutdownHook = new Thread(this::closeFromHook, "sonde-shutdown");
            Runtime.getRuntime().addShutdownHook(this.shutdownHook);
        } else {
            this.shutdownHook = null;
        }
    }

    public Registry registry() {
        return registry;
    }

    public ProbeRuntime runtime() {
        return runtime;
    }

    public SondeConfig config() {
        return config;
    }

    public java.util.UUID agentId() {
        return identity.agentId;
    }

    /** Largest EVENT record (header + fields) the rings of this pipeline accept. */
    public int maxEventBytes() {
        return ThreadBuffer.maxRecordBytes(ringBytes);
    }

    /** Defines a method probe and switches it on; returns its id. */
    public int defineProbe(String name, String signature) {
        synchronized (runtime) {
            int before = registry.maxProbeId();
            int id = registry.probe(name, signature);
            if (id > before) runtime.addProbe(id); // new probes start switched on
            return id;
        }
    }

    /**
     * Creates the calling thread's buffer (slow path, once per thread): a ring while fewer than
     * {@code buffers.max} rings exist, else a placeholder that drops with reason "no buffer".
     * The THREAD_DEF is queued before the buffer becomes visible to the writer thread.
     */
    public ThreadBuffer newBuffer(Thread t) {
        return newBuffer(t, t.getId(), t.getName(), 0, ringBytes);
    }

    /**
     * Creates a buffer with explicit thread id, name, ordinal (0 = next) and ring size; the public
     * variant passes the thread's own values. Package-private for deterministic tests.
     */
    ThreadBuffer newBuffer(Thread owner, long threadId, String name, int ordinal, int capacity) {
        synchronized (lock) {
            boolean ring = liveRings < maxRings;
            if (ring) {
                registry.thread(threadId, name);
                liveRings++;
            }
            int ord = ordinal > 0 ? ordinal : ++ordinals;
            ThreadBuffer b = new ThreadBuffer(ring ? capacity : 0, dropWhenFull, this, owner, threadId, ord);
            buffers.add(b);
            bufferArray = buffers.toArray(new ThreadBuffer[0]);
            return b;
        }
    }

    @Override
    public int nextOrdinal() {
        synchronized (lock) {
            return ++ordinals;
        }
    }

    ThreadBuffer[] buffers() {
        return bufferArray;
    }

    /** Removes a drained buffer of a dead thread, keeping its counts (writer thread). */
    void release(ThreadBuffer b) {
        synchronized (lock) {
            if (!buffers.remove(b)) return;
            retiredFull += b.droppedFull();
            retiredNoBuffer += b.droppedNoBuffer();
            retiredClosed += b.droppedClosed();
            retiredProduced += b.produced();
            if (b.capacity() > 0) {
                liveRings--;
                registry.forgetThread(b.threadId());
            }
            bufferArray = buffers.toArray(new ThreadBuffer[0]);
        }
    }

    @Override
    public void wakeWriter() {
        LockSupport.unpark(writerThread);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Current counters. While running, drops by reason "closed" are those producers counted
     * after close began; at close the final figures (as in the trailer) are fixed.
     */
    public Counters counters() {
        Counters f = loop.finalCounters;
        if (f != null) return f;
        return sum(false);
    }

    /**
     * Sums the counters. Drops are read before "produced" (each producer increments produced
     * before a drop counter), so produced - written - drops is never negative.
     */
    Counters sum(boolean closing) {
        long w = written;
        long wf = droppedWriterFailed;
        long full, noBuf, cl, prod;
        synchronized (lock) {
            full = retiredFull;
            noBuf = retiredNoBuffer;
            cl = retiredClosed;
            prod = retiredProduced;
            for (ThreadBuffer b : buffers) {
                full += b.droppedFull();
                noBuf += b.droppedNoBuffer();
                cl += b.droppedClosed();
                prod += b.produced();
            }
        }
        long[] drops = new long[5];
        drops[Format.DROP_BUFFER_FULL] = full;
        drops[Format.DROP_NO_BUFFER] = noBuf;
        drops[Format.DROP_WRITER_FAILED] = wf;
        // at close, whatever is neither written nor dropped otherwise was left in the rings
        drops[Format.DROP_CLOSED] = closing ? prod - w - full - noBuf - wf : cl;
        return new Counters(prod, w, drops);
    }

    /**
     * Drains every ring, writes the trailer and closes the writer; waits at most
     * {@code shutdown.timeout.ms}. Idempotent. Afterwards the static probes are inactive.
     */
    public void close() {
        closeAndWait();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting; the hook runs (and finds the pipeline closed)
            }
        }
    }

    private void closeFromHook() {
        closeAndWait();
    }

    private void closeAndWait() {
        synchronized (this) {
            if (!closeStarted) {
                closeStarted = true;
                // writers that retry (tcp) give up at 80 % of the timeout, leaving time for the trailer
                closeDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(shutdownTimeoutMs) * 4 / 5;
                runtime.disableAll(); // no new enters; exits of running methods still record
                closed = true; // producers with a full ring now drop (reason closed) instead of waiting
                loop.stop = true;
                LockSupport.unpark(writerThread);
            }
        }
        if (manual) {
            if (!loop.finished) loop.finish();
            Probes.deactivate(runtime);
            return;
        }
        try {
            long timeout = Math.max(1, shutdownTimeoutMs);
            writerThread.join(Math.max(1, timeout * 9 / 10));
            if (writerThread.isAlive()) {
                // stuck in I/O (e.g. a receiver that stopped reading): interrupting closes the
                // interruptible channel, the writer gives up and still finishes its bookkeeping
                writerThread.interrupt();
                writerThread.join(Math.max(1, timeout / 10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writerThread.isAlive()) {
            System.err.println("sonde: writer did not finish within shutdown.timeout.ms=" + shutdownTimeoutMs
                    + "; the stream may lack its trailer");
        }
        Probes.deactivate(runtime);
    }

    /** True once close() has finished writing (or given up). */
    public boolean isTerminated() {
        return loop.finished;
    }

    // ---- manual mode (deterministic tests): the caller plays the writer thread

    void manualOpen() {
        loop.open();
    }

    void manualDrain() throws java.io.IOException {
        loop.drain();
    }

    void manualEmitFrame() throws java.io.IOException {
        loop.emitFrame();
    }
}
