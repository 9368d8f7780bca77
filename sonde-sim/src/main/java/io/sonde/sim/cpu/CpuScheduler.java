package io.sonde.sim.cpu;

/**
 * Decides which threads of a {@link Machine} run on its CPUs and when. Implementations:
 * {@link ProcessorSharing}, {@link RoundRobin}, {@link Linux24Scheduler}; create them through
 * {@link SchedulerFactory}. They live in this package because they keep their bookkeeping in
 * package-private fields of {@link CpuThread} (no per-event allocation, no maps).
 */
public interface CpuScheduler {
    /** A short name, e.g. {@code ps}, {@code rr(10.0ms)}, {@code linux24}. */
    String name();

    /** {@code thread} was created (by {@code parent}, or at set-up when null). */
    void threadCreated(CpuThread thread, CpuThread parent);

    /** {@code thread} exited; it has no burst pending. */
    void threadExited(CpuThread thread);

    /**
     * {@code thread} asks for {@code time} ms of CPU (already scaled by the machine speed). Either
     * it is inside its own {@code onCpuDone} on a CPU (it goes on computing) or it wakes up.
     */
    void demand(CpuThread thread, double time);

    /** Number of threads that hold a CPU or wait for one. */
    int runnable();
}
