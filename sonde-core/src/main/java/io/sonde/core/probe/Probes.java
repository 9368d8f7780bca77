package io.sonde.core.probe;

import io.sonde.core.buffer.ThreadBuffer;

/**
 * Static entry points of method probes, for woven advice and for the object API
 * ({@code io.sonde.api.MethodProbe}). Usage per monitored method execution:
 *
 * <pre>{@code
 * boolean e = Probes.enter(id);
 * try { ... } catch (Throwable t) { Probes.exitExceptionally(id, e, t); throw t; }
 * Probes.exit(id, e);   // on normal return
 * }</pre>
 *
 * <p>{@code enter} returns whether it recorded; passing that to the exit call keeps enter and exit
 * balanced when the probe is switched between them. A switched-off probe costs one volatile load
 * of the switches array and one opaque byte load: no thread-local lookup, no clock read.
 */
public final class Probes {
    private Probes() {}

    /** The runtime of the running monitor, or {@link ProbeRuntime#NOOP}. */
    private static volatile ProbeRuntime active = ProbeRuntime.NOOP;

    /**
     * The active runtime's switches array, kept here too so that a switched-off probe costs a
     * single dependent load chain: this array, then its byte (empty when no monitor runs).
     */
    private static volatile byte[] switches = new byte[0];

    /** Makes {@code rt} the target of all probes; fails if another monitor is running. */
    public static synchronized void activate(ProbeRuntime rt) {
        if (active != ProbeRuntime.NOOP && active != rt) {
            throw new IllegalStateException("a Sonde monitor is already running in this JVM; close it first");
        }
        active = rt;
        switches = rt.switches;
    }

    /** Ends {@code rt}'s turn (no-op if another runtime is active). */
    public static synchronized void deactivate(ProbeRuntime rt) {
        if (active == rt) {
            switches = new byte[0];
            active = ProbeRuntime.NOOP;
        }
    }

    /** Called by {@code rt} after it replaced its switches array (growth, close). */
    static synchronized void refresh(ProbeRuntime rt) {
        if (active == rt) switches = rt.switches;
    }

    /** The active runtime ({@link ProbeRuntime#NOOP} when no monitor runs). */
    public static ProbeRuntime active() {
        return active;
    }

    /**
     * Records the entry into the method of probe {@code id} if the probe is on.
     *
     * @return true if an ENTER was recorded; pass it to the matching exit call
     */
    public static boolean enter(int id) {
        byte[] s = switches;
        if (id < 0 || id >= s.length || (byte) ProbeRuntime.SWITCH.getOpaque(s, id) == 0) {
            return false;
        }
        ProbeRuntime rt = active;
        ThreadBuffer b = rt.local.get();
        if (b == null && (b = rt.newBuffer()) == null) return false;
        if (b == ProbeRuntime.EXCLUDED) return false; // thread filter said no (agent's thread patterns)
        long t = System.nanoTime();
        int cpu = rt.cpuMode;
        if (cpu == ProbeRuntime.CPU_OFF || (cpu == ProbeRuntime.CPU_ROOTS && b.depth() != 0)) {
            b.enter(id, t);
        } else {
            b.enterCpu(id, t, rt.cpuTime());
        }
        return true;
    }

    /** Records the normal exit from the method of probe {@code id} if {@code entered}. */
    public static void exit(int id, boolean entered) {
        if (!entered) return;
        ProbeRuntime rt = active;
        ThreadBuffer b = rt.local.get();
        if (b == null) return; // the monitor changed since the enter: nothing to balance
        long t = System.nanoTime();
        int cpu = rt.cpuMode;
        if (cpu == ProbeRuntime.CPU_OFF || (cpu == ProbeRuntime.CPU_ROOTS && b.depth() != 1)) {
            b.exit(id, t);
        } else {
            b.exitCpu(id, t, rt.cpuTime());
        }
    }

    /**
     * Records that {@code thrown} leaves the method of probe {@code id} if {@code entered}
     * (EXIT_EXCEPTION with the exception's class name). May allocate the first time a class is seen.
     */
    public static void exitExceptionally(int id, boolean entered, Throwable thrown) {
        if (!entered) return;
        ProbeRuntime rt = active;
        ThreadBuffer b = rt.local.get();
        if (b == null) return;
        long t = System.nanoTime();
        int cpu = rt.cpuMode;
        boolean withCpu = !(cpu == ProbeRuntime.CPU_OFF || (cpu == ProbeRuntime.CPU_ROOTS && b.depth() != 1));
        // Read the clocks before the class-name lookup: its first call per class registers a
        // string (allocation, locking) that belongs to Sonde, not to the monitored method.
        long cpuNanos = withCpu ? rt.cpuTime() : 0L;
        int name = rt.exceptionId(thrown == null ? Throwable.class : thrown.getClass());
        if (withCpu) {
            b.exitExceptionCpu(id, t, cpuNanos, name);
        } else {
            b.exitException(id, t, name);
        }
    }
}
