package io.sonde.sim.cpu;

import java.util.Objects;

/**
 * Anything that consumes CPU time on a {@link Machine} under the control of its
 * {@link CpuScheduler}: in practice a simulated thread ({@code io.sonde.sim.blocks.SimThread}).
 *
 * <p>A thread asks for a burst of CPU work with {@link #useCpu(double)}; the scheduler runs it
 * (possibly interleaved with others, preempted, on any of the machine's CPUs) and calls
 * {@link #onCpuDone()} when the burst is complete. Inside {@code onCpuDone} the thread may ask for
 * the next burst straight away; it then keeps its CPU (no context switch), as a real thread that
 * goes on computing does. If it returns without asking, it is blocked (sleeping, waiting for a
 * queue, a mutex, a reply) until it asks again, which the scheduler treats as a wake-up.
 *
 * <p>A thread is known to its machine's scheduler from construction until {@link #exit()}
 * (the Linux 2.4 scheduler recalculates the time slices of blocked threads too).
 */
public abstract class CpuThread {
    static final int OFF = 0; // not asking for CPU (blocked or idle)
    static final int READY = 1; // waiting for a CPU
    static final int RUNNING = 2; // on a CPU with work left
    static final int CALLBACK = 3; // on a CPU, burst done, inside onCpuDone
    static final int CALLBACK_PREEMPTED = 4; // burst done, lost the CPU during onCpuDone

    private final Machine machine;
    private final String name;
    private final int nice;
    private boolean exited;

    // --- bookkeeping owned by the schedulers of this package ---
    int state = OFF;
    /** Simulated time (ms) left of the current burst. */
    double remaining;
    /** Length of the current burst (ms), for CPU-time accounting. */
    double burst;
    int cpu = -1;
    int lastCpu = -1;
    /** Linux 2.4: remaining time slice in ticks. */
    int counter;
    /** Linux 2.4: position in the run queue (smaller = nearer the front). */
    long stamp;
    boolean needResched;
    /** Processor sharing: virtual finish time and heap position. */
    double tag;
    long order;
    int heapIndex = -1;
    double cpuTime;
    long bursts;

    /**
     * Creates a thread on {@code machine} and makes it known to the scheduler.
     *
     * @param machine the machine whose CPUs run it
     * @param name a name for messages
     * @param nice the Unix nice value, -20..19 (0 normally); only the Linux 2.4 scheduler uses it
     * @param parent the thread that creates this one (null for threads created at set-up); the
     *     Linux 2.4 scheduler splits the parent's remaining time slice with the child, as fork did
     */
    protected CpuThread(Machine machine, String name, int nice, CpuThread parent) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.name = Objects.requireNonNull(name, "name");
        if (nice < -20 || nice > 19) {
            throw new IllegalArgumentException("nice must be in -20..19, got " + nice + " for thread " + name);
        }
        this.nice = nice;
        // Registering from the constructor leaks 'this' to the scheduler, which only initialises
        // its bookkeeping fields above (already set); no subclass state is touched.
        machine.attach(this, parent);
    }

    /** The machine this thread runs on. */
    public final Machine machine() {
        return machine;
    }

    /** The thread's name. */
    public final String name() {
        return name;
    }

    /** The nice value. */
    public final int nice() {
        return nice;
    }

    /** Total CPU time (ms of simulated time) this thread has received. */
    public final double cpuTime() {
        return cpuTime;
    }

    /** Number of CPU bursts completed. */
    public final long bursts() {
        return bursts;
    }

    /** Linux 2.4 only: the remaining time slice in timer ticks. */
    public final int counter() {
        return counter;
    }

    /** Whether the thread currently holds a CPU. */
    public final boolean isOnCpu() {
        return state == RUNNING || state == CALLBACK;
    }

    /** Whether the thread is waiting for a CPU. */
    public final boolean isReady() {
        return state == READY;
    }

    /** Whether {@link #exit()} was called. */
    public final boolean hasExited() {
        return exited;
    }

    /**
     * Asks for {@code work} ms of CPU (at the machine's reference speed; the machine's
     * {@link Machine#speed()} scales it). {@link #onCpuDone()} follows when it has been given.
     *
     * @throws IllegalStateException if a burst is already pending or the thread exited
     */
    protected final void useCpu(double work) {
        if (!(work > 0) || Double.isInfinite(work)) {
            throw new IllegalArgumentException("CPU work must be finite and > 0, got " + work + " for thread " + name);
        }
        if (exited) {
            throw new IllegalStateException("thread " + name + " has exited");
        }
        if (state == READY || state == RUNNING) {
            throw new IllegalStateException("thread " + name + " already has a CPU burst pending");
        }
        double time = work / machine.speed();
        burst = time;
        machine.scheduler().demand(this, time);
    }

    /** Called by the scheduler when the burst asked for with {@link #useCpu} is complete. */
    protected abstract void onCpuDone();

    /** Removes the thread from its machine; it must not have a burst pending. */
    protected final void exit() {
        if (exited) {
            return;
        }
        if (state == READY || state == RUNNING) {
            throw new IllegalStateException("thread " + name + " cannot exit with a CPU burst pending");
        }
        exited = true;
        machine.detach(this);
    }

    /** Used by schedulers: the burst is complete. */
    final void completeBurst() {
        cpuTime += burst;
        bursts++;
        onCpuDone();
    }

    @Override
    public String toString() {
        return name;
    }
}
