package io.sonde.sim.model;

import io.sonde.sim.cpu.CpuThread;
import io.sonde.sim.cpu.Machine;

/**
 * A server thread of a middleware model, written in continuation style: {@link #cpu} asks for a
 * CPU burst and runs the continuation when the scheduler has given it; a thread that returns
 * without asking for CPU is blocked until someone calls {@link #wake}.
 *
 * <p>A wake-up costs some CPU before the continuation runs (the context switch, and for Java
 * monitors the LinuxThreads restart-signal handling). This also makes the continuation run only
 * once the scheduler has actually given the woken thread a CPU, so time stamps taken there ("the
 * dispatcher starts the request") include the wait for the CPU.
 */
final class Worker extends CpuThread {
    /** Smallest burst used to model "gets the CPU" when a step itself costs nothing. */
    static final double MIN_BURST = 1e-6;

    private Runnable next;
    private boolean blocked = true;

    Worker(Machine machine, String name, Worker parent) {
        super(machine, name, 0, parent);
    }

    /** Runs {@code then} after {@code ms} of CPU (at least a minimal burst). */
    void cpu(double ms, Runnable then) {
        next = then;
        blocked = false;
        useCpu(Math.max(MIN_BURST, ms));
    }

    /** Blocks: the thread asks for nothing until {@link #wake}. */
    void block() {
        blocked = true;
        next = null;
    }

    /** Whether the thread is blocked (waiting for a wake-up). */
    boolean isBlocked() {
        return blocked;
    }

    /**
     * Wakes a blocked thread: it pays {@code costMs} of CPU for waking up (at least a minimal
     * burst, so {@code then} runs once the thread really has a CPU), then runs {@code then}.
     */
    void wake(double costMs, Runnable then) {
        if (!blocked) {
            throw new IllegalStateException("thread " + name() + " woken while not blocked");
        }
        cpu(costMs, then);
    }

    /** Ends the thread. */
    void terminate() {
        blocked = true;
        next = null;
        exit();
    }

    @Override
    protected void onCpuDone() {
        Runnable r = next;
        next = null;
        blocked = true; // unless r asks for more CPU
        r.run();
    }
}
