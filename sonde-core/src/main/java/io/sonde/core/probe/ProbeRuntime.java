package io.sonde.core.probe;

import io.sonde.core.buffer.ThreadBuffer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The hot-path state of one running pipeline: the per-probe switches, the thread-local buffers,
 * the CPU time mode and the exception-class string ids. {@link Probes} reads the active instance;
 * when no monitor runs, it is {@link #NOOP}, whose switches array is empty, so every probe is off.
 */
public final class ProbeRuntime {
    /** CPU time mode values. */
    public static final int CPU_OFF = 0, CPU_ON = 1, CPU_ROOTS = 2;

    static final VarHandle SWITCH = MethodHandles.arrayElementVarHandle(byte[].class);

    /** The runtime of "no monitor running". */
    public static final ProbeRuntime NOOP = new ProbeRuntime(null);

    /** Null for {@link #NOOP}. */
    private final ProbeHost host;
    /**
     * One byte per probe id, 1 = on. Read with getOpaque on the hot path: as cheap as a plain load,
     * but the JIT cannot hoist it out of a loop, so a switch takes effect in a running loop.
     * Replaced (copied, larger) when probes are added; switch writes and growth hold {@code this}.
     */
    volatile byte[] switches = new byte[0];
    /** Switches of all probes while running; an empty array once closing (all enters off). */
    private byte[] saved;
    final ThreadLocal<ThreadBuffer> local = new ThreadLocal<>();
    volatile int cpuMode;
    private final ClassValue<Integer> exceptionIds = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            return host == null ? 0 : host.stringId(type.getName());
        }
    };
    private final com.sun.management.ThreadMXBean threads;

    /** A runtime whose buffers and strings come from {@code host} (null: the {@link #NOOP} runtime). */
    public ProbeRuntime(ProbeHost host) {
        this.host = host;
        java.lang.management.ThreadMXBean mx = host == null ? null : ManagementFactory.getThreadMXBean();
        this.threads = mx instanceof com.sun.management.ThreadMXBean ? (com.sun.management.ThreadMXBean) mx : null;
    }

    /** The calling thread's buffer, created on first use (slow path); null when no monitor runs. */
    ThreadBuffer newBuffer() {
        if (host == null) return null;
        java.util.function.Predicate<Thread> filter = threadFilter;
        if (filter != null && !filter.test(Thread.currentThread())) {
            local.set(EXCLUDED); // decided once per thread; Probes.enter then returns false
            return null;
        }
        ThreadBuffer b = host.newBuffer(Thread.currentThread());
        local.set(b);
        return b;
    }

    /** The calling thread's buffer if it has one already (null for a thread the filter excludes). */
    public ThreadBuffer currentBuffer() {
        ThreadBuffer b = local.get();
        return b == EXCLUDED ? null : b;
    }

    /** The calling thread's buffer, created if needed; null when no monitor runs or the filter excludes the thread. */
    public ThreadBuffer buffer() {
        ThreadBuffer b = local.get();
        return b == EXCLUDED ? null : b != null ? b : newBuffer();
    }

    /**
     * Marker in the thread-local slot of threads the thread filter excludes; never written to.
     * Lets {@link Probes#enter} reject such a thread with one reference comparison.
     */
    static final ThreadBuffer EXCLUDED = new ThreadBuffer(0, true, null, null, 0L, 0);

    /** Decides per thread, at its first probe, whether the thread records; null = every thread. */
    private volatile java.util.function.Predicate<Thread> threadFilter;

    /**
     * Sets the thread filter (used by the java agent's include/exclude thread-name patterns).
     * Applies to threads that have not recorded yet; set it before probes fire.
     */
    public void setThreadFilter(java.util.function.Predicate<Thread> filter) {
        this.threadFilter = filter;
    }

    long cpuTime() {
        return threads != null ? threads.getCurrentThreadCpuTime() : -1L;
    }

    int exceptionId(Class<?> type) {
        return exceptionIds.get(type);
    }

    /** Sets the CPU time mode ({@link #CPU_OFF}, {@link #CPU_ON}, {@link #CPU_ROOTS}). */
    public void setCpuMode(int mode) {
        if (mode < CPU_OFF || mode > CPU_ROOTS) throw new IllegalArgumentException("cpu mode " + mode);
        if (mode != CPU_OFF && threads == null) {
            throw new UnsupportedOperationException("this JVM offers no com.sun.management.ThreadMXBean");
        }
        cpuMode = mode;
    }

    public int cpuMode() {
        return cpuMode;
    }

    /** Makes room for probe {@code id} and switches it on (called when the probe is defined). */
    public synchronized void addProbe(int id) {
        byte[] s = saved != null ? saved : switches;
        if (id >= s.length) {
            s = Arrays.copyOf(s, Math.max(id + 1, Math.max(64, s.length * 2)));
        }
        SWITCH.setVolatile(s, id, (byte) 1);
        if (saved != null) {
            saved = s;
        } else if (s != switches) {
            switches = s;
            Probes.refresh(this);
        }
    }

    /** Switches probe {@code id} on or off; takes effect in running loops too. */
    public synchronized void setEnabled(int id, boolean on) {
        byte[] s = saved != null ? saved : switches;
        if (id < 0 || id >= s.length) throw new IllegalArgumentException("unknown probe id " + id);
        SWITCH.setVolatile(s, id, on ? (byte) 1 : (byte) 0);
    }

    public boolean isEnabled(int id) {
        byte[] s = saved != null ? saved : switches;
        return id >= 0 && id < s.length && (byte) SWITCH.getVolatile(s, id) != 0;
    }

    /** Switches every probe off at once (when closing): enters stop, exits of running methods still record. */
    public synchronized void disableAll() {
        if (saved == null) {
            saved = switches;
            switches = new byte[0];
            Probes.refresh(this);
        }
    }
}
