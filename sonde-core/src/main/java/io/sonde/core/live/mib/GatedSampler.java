package io.sonde.core.live.mib;

import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;

/**
 * Samples sensors whose values live elsewhere (JVM metrics, MBean attributes) on one daemon
 * thread, every period, but only those whose gate is open: a sensor nobody subscribes to is never
 * read. The thread starts at the first open gate and waits without a timeout while none is open.
 */
public final class GatedSampler implements GateListener, AutoCloseable {
    private final MibTree tree;
    private final long periodMillis;
    private final String threadName;
    /** Source -> how to sample it; added and removed at any time (bridged MBeans come and go). */
    private final Map<Source, Runnable> probes = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private int open;
    private Thread thread;
    private boolean closed;

    public GatedSampler(MibTree tree, long periodMillis, String threadName) {
        if (periodMillis < 1) throw new IllegalArgumentException("sampling period: " + periodMillis + " ms is below 1 ms");
        this.tree = tree;
        this.periodMillis = periodMillis;
        this.threadName = threadName;
    }

    /** Samples {@code source} with {@code sample} whenever its gate is open. */
    public void add(Source source, Runnable sample) {
        probes.put(source, sample);
        tree.setGateListener(source, this);
    }

    /** Forgets {@code source} (after it left the tree, which closed its gate). */
    public void remove(Source source) {
        probes.remove(source);
    }

    /** Samples every source whose gate is open now; returns how many it sampled. */
    public int sampleOnce() {
        int n = 0;
        for (Map.Entry<Source, Runnable> p : probes.entrySet()) {
            if (p.getKey().gate() != 0) {
                p.getValue().run();
                n++;
            }
        }
        return n;
    }

    /** Sources with an open gate. */
    public synchronized int openGates() {
        return open;
    }

    /** Whether the sampler thread was ever started. */
    public synchronized boolean started() {
        return thread != null;
    }

    @Override
    public synchronized void gateChanged(Source source, boolean isOpen) {
        open += isOpen ? 1 : -1;
        if (open > 0 && thread == null && !closed) {
            thread = new Thread(this::run, threadName);
            thread.setDaemon(true);
            thread.start();
        }
        notifyAll();
    }

    private void run() {
        for (;;) {
            synchronized (this) {
                try {
                    while (open == 0 && !closed) wait();
                    if (closed) return;
                    wait(periodMillis);
                    if (closed) return;
                } catch (InterruptedException e) {
                    return;
                }
            }
            sampleOnce(); // outside the monitor: gate changes (under the tree's lock) never wait for a sample
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
