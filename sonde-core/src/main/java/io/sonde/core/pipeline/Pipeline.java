package io.sonde.core.pipeline;

import io.sonde.core.buffer.RingHost;
import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.packing.Packing;
import io.sonde.core.probe.ProbeHost;
import io.sonde.core.probe.ProbeRuntime;
import io.sonde.core.probe.Probes;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.Writers;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One running monitor's in-process pipeline: the registry, the per-thread rings, the probe
 * runtime fed by them, the {@link WriterLoop} (the writer thread with the writer plug-in) and the
 * shutdown logic. It implements what the lower layers ask of it: {@link RingHost} for the rings,
 * {@link ProbeHost} for the probes and {@link WriterLoop.Source} for the writer thread.
 */
public final class Pipeline implements RingHost, ProbeHost, WriterLoop.Source {
    private static final DropReason[] PRODUCER_REASONS = {DropReason.BUFFER_FULL, DropReason.CLOSED,
        DropReason.NO_BUFFER};

    private final Registry registry = new Registry();
    private final ProbeRuntime runtime;
    private final SondeConfig config;
    private final Identity identity;
    private final int ringBytes;
    private final int maxRings;
    private final boolean dropWhenFull;
    private final long blockNanos;
    private final long shutdownTimeoutMs;

    private final Object lock = new Object();
    private final ArrayList<ThreadBuffer> buffers = new ArrayList<>();
    /** Copy of {@link #buffers} for the writer thread, rebuilt when the list changes. */
    private volatile ThreadBuffer[] bufferArray = new ThreadBuffer[0];
    private int liveRings;
    private int ordinals;
    // counters of released buffers (guarded by lock)
    private long retiredProduced;
    private final long[] retiredDrops = new long[DropReason.values().length];

    private volatile boolean closed;
    private final WriterLoop loop;
    private final Writer writer;
    private final Thread shutdownHook;
    private boolean closeStarted;

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
        this.config = config;
        this.writer = writer;
        this.identity = identity;
        this.ringBytes = config.getInt(ConfigKey.BUFFER_BYTES);
        this.maxRings = config.getInt(ConfigKey.BUFFERS_MAX);
        String policy = config.get(ConfigKey.POLICY);
        this.dropWhenFull = policy.equals("drop");
        this.blockNanos = policy.equals("block-forever") ? -1L
                : TimeUnit.MILLISECONDS.toNanos(config.getLong(ConfigKey.BLOCK_TIMEOUT_MS));
        this.shutdownTimeoutMs = config.getLong(ConfigKey.SHUTDOWN_TIMEOUT_MS);
        this.runtime = new ProbeRuntime(this);
        String cpu = config.get(ConfigKey.CPU_TIME);
        runtime.setCpuMode(cpu.equals("on") ? ProbeRuntime.CPU_ON
                : cpu.equals("roots") ? ProbeRuntime.CPU_ROOTS : ProbeRuntime.CPU_OFF);
        Probes.activate(runtime);
        int frameBytes = config.getInt(ConfigKey.FRAME_BYTES);
        Packing packing = Packing.parse(config.get(ConfigKey.PACKING),
                TimeUnit.MILLISECONDS.toNanos(config.getLong(ConfigKey.PACKING_MAXWAIT_MS)),
                TimeUnit.MILLISECONDS.toNanos(config.getLong(ConfigKey.PACKING_INTERVAL_MS)),
                Math.max(1, frameBytes / Format.ENTER_BYTES)); // the most records a frame can hold: ENTER is the smallest
        this.loop = new WriterLoop(this, registry, writer, identity, frameBytes,
                TimeUnit.MILLISECONDS.toNanos(config.getLong(ConfigKey.FLUSH_INTERVAL_MS)), packing);
        if (config.get(ConfigKey.COMPRESS).equals("lz4")) loop.compressFrames();
        if (!manual) loop.start();
        if (shutdownHook) {
            this.shutdownHook = new Thread(this::closeFromHook, "sonde-shutdown");
            Runtime.getRuntime().addShutdownHook(this.shutdownHook);
        } else {
            this.shutdownHook = null;
        }
    }

    /**
     * Tells the writer where this process's observe endpoint listens (port; {@code advertisedHost}
     * empty: the address the collector sees), so a collector can relay observers to it.
     */
    public void announceObserve(int port, String advertisedHost) {
        announceObserve(port, advertisedHost, false);
    }

    /** As {@link #announceObserve(int, String)}; {@code tls}: the endpoint serves TLS only (the collector dials it with TLS). */
    public void announceObserve(int port, String advertisedHost, boolean tls) {
        writer.announceObserve(port, advertisedHost.trim(), tls);
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

    /**
     * Starts counting executions, durations and depths per probe on the writer thread (for the
     * java agent's overhead budget; costs the writer thread a few ns per record, nothing on the
     * probe path). Idempotent.
     */
    public ProbeTally enableProbeTally() {
        return loop.enableTally();
    }

    /**
     * Starts the per-probe tally with calls, errors and latency histograms (for the agent's
     * Prometheus endpoint, {@code prometheus.port}); the writer thread takes them from the records
     * it drains, off the probes' path.
     */
    public ProbeTally enableOperationStats() {
        ProbeTally t = loop.enableTally();
        t.enableOperationStats();
        return t;
    }

    /**
     * How the writer thread packs records into frames ({@code packing}): mode and current degree,
     * e.g. to watch the adaptive degree move. Read-only outside the writer thread.
     */
    public Packing packing() {
        return loop.packing();
    }

    /** Id of the writer thread ("sonde-writer"), e.g. to read its CPU time. */
    public long writerThreadId() {
        return loop.threadId();
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
     * Creates the buffer of {@code t} (slow path, once per thread): a ring while fewer than
     * {@code buffers.max} rings exist, else a placeholder that drops with reason "no buffer".
     * The THREAD_DEF is queued before the buffer becomes visible to the writer thread.
     */
    @Override
    public ThreadBuffer newBuffer(Thread t) {
        return newBuffer(t, t.getId(), t.getName(), 0, ringBytes);
    }

    /**
     * Creates a buffer with explicit thread id, name, ordinal (0 = next) and ring size; the public
     * variant passes the thread's own values. Package-private for deterministic tests.
     */
    ThreadBuffer newBuffer(Thread owner, long threadId, String name, int ordinal, int capacity) {
        ThreadBuffer b;
        synchronized (lock) {
            boolean ring = liveRings < maxRings;
            if (ring) {
                registry.thread(threadId, name);
                liveRings++;
            }
            int ord = ordinal > 0 ? ordinal : ++ordinals;
            b = new ThreadBuffer(ring ? capacity : 0, dropWhenFull, blockNanos, this, owner, threadId, ord);
            buffers.add(b);
            bufferArray = buffers.toArray(new ThreadBuffer[0]);
        }
        // New threads often come as others end (thread churn). Rings of dead threads are released
        // only by a drain; waiting for the next flush interval let up to buffers.max of them pile
        // up (256 MiB with the defaults: 5000 short-lived threads ran a 128 MB heap out of memory,
        // ThreadChurnIT). Waking the writer now keeps the dead rings to those of one drain.
        wakeWriter();
        return b;
    }

    @Override
    public int nextOrdinal() {
        synchronized (lock) {
            return ++ordinals;
        }
    }

    @Override
    public ThreadBuffer[] buffers() {
        return bufferArray;
    }

    /** Removes a drained buffer of a dead thread, keeping its counts (writer thread). */
    @Override
    public void release(ThreadBuffer b) {
        synchronized (lock) {
            if (!buffers.remove(b)) return;
            for (DropReason r : PRODUCER_REASONS) retiredDrops[r.ordinal()] += b.dropped(r);
            retiredProduced += b.produced();
            if (b.capacity() > 0) {
                liveRings--;
                registry.forgetThread(b.threadId());
            }
            bufferArray = buffers.toArray(new ThreadBuffer[0]);
        }
    }

    @Override
    public long producerCounts(long[] drops) {
        synchronized (lock) {
            long produced = retiredProduced;
            for (DropReason r : PRODUCER_REASONS) drops[r.ordinal()] += retiredDrops[r.ordinal()];
            for (ThreadBuffer b : buffers) {
                // each ring's drops before its produced count (see WriterLoop.Source)
                for (DropReason r : PRODUCER_REASONS) drops[r.ordinal()] += b.dropped(r);
                produced += b.produced();
            }
            return produced;
        }
    }

    @Override
    public int stringId(String value) {
        return registry.string(value);
    }

    @Override
    public void wakeWriter() {
        loop.wake();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /**
     * Current counters. While running, drops by reason "closed" are those producers counted
     * after close began; at close the final figures (as in the trailer) are fixed, except that
     * records the writer reports lost after the trailer (writer=kafka giving up at the close
     * deadline) move from written to dropped.
     */
    public RecordCounts counters() {
        return loop.counts();
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
                runtime.disableAll(); // no new enters; exits of running methods still record
                closed = true; // producers with a full ring now drop (reason closed) instead of waiting
                loop.requestStop(shutdownTimeoutMs);
            }
        }
        loop.awaitTermination(shutdownTimeoutMs);
        Probes.deactivate(runtime);
    }

    /** True once close() has finished writing (or given up). */
    public boolean isTerminated() {
        return loop.isTerminated();
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
