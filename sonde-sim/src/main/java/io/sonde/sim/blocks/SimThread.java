package io.sonde.sim.blocks;

import io.sonde.sim.cpu.CpuThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.Arrays;
import java.util.Objects;

/**
 * A simulated thread, driven in one of two ways.
 *
 * <ul>
 *   <li>By a {@link Program} (scenario files, hand-built models): it runs the program one step
 *       after another, blocking in CPU bursts (scheduled by the machine's scheduler), delays,
 *       mutexes, queue gets and nested calls. It holds at most one current request. Wake-ups (a
 *       request delivered, a mutex handed over, a reply, the end of a delay) take effect through
 *       an event at the current time rather than by a nested call, so the thread that caused them
 *       finishes its own instantaneous steps first — as on a real CPU, where the waker keeps
 *       running until the scheduler decides otherwise — and call stacks stay shallow.</li>
 *   <li>By continuations ({@link #driven}, the middleware models): {@link #compute(double,
 *       Runnable)} asks for a CPU burst and runs the continuation when the scheduler has given
 *       it; a thread whose continuation returns without asking for CPU is blocked until someone
 *       calls {@link #wake}. A wake-up costs CPU chosen by the waker (the context switch, and for
 *       Java monitors the LinuxThreads restart-signal handling), which also makes the
 *       continuation run only once the woken thread really has a CPU, so time stamps taken there
 *       include the wait for the CPU.</li>
 * </ul>
 *
 * <p>{@link Mutex} serves both kinds of thread.
 */
public class SimThread extends CpuThread {
    /** Smallest burst used to model "gets the CPU" when a continuation step itself costs nothing. */
    public static final double MIN_BURST = 1e-6;
    private static final long SPIN_LIMIT = 10_000_000L;

    private final Simulation sim;
    private Request request;
    private Program[] programs = new Program[4];
    private int[] pcs = new int[4];
    private int depth;
    private double[] stamps;
    private boolean started;
    private boolean finished;
    private long spin;
    /** Continuation-driven threads: what runs when the current CPU burst is done. */
    private Runnable next;
    /** Continuation-driven threads: whether the thread waits for a {@link #wake}. */
    private boolean blocked = true;
    /** When the thread started waiting for a mutex (set by {@link Mutex}). */
    double waitSince;
    private final Event wake = new Event() {
        @Override
        protected void fire() {
            proceed();
        }
    };

    /** A thread created at set-up (nice 0, no creator) that runs {@code program}. */
    public SimThread(Machine machine, String name, Program program) {
        this(machine, name, 0, null, program, null);
    }

    /**
     * A thread.
     *
     * @param machine where it runs
     * @param name its name
     * @param nice its nice value (Linux 2.4 scheduler)
     * @param creator the thread creating it, or null at set-up
     * @param program what it runs
     * @param request its initial current request, or null
     */
    public SimThread(Machine machine, String name, int nice, SimThread creator, Program program, Request request) {
        this(machine, name, nice, creator, Objects.requireNonNull(program, "program"), request, true);
    }

    private SimThread(Machine machine, String name, int nice, SimThread creator, Program program, Request request,
            boolean programmed) {
        super(machine, name, nice, creator);
        this.sim = machine.sim();
        programs[0] = program;
        depth = programmed ? 1 : 0;
        this.request = request;
    }

    /**
     * A thread driven by continuations rather than a program (nice 0, blocked until the first
     * {@link #compute(double, Runnable)} or {@link #wake}).
     *
     * @param machine where it runs
     * @param name its name
     * @param creator the thread creating it (Linux 2.4 splits the creator's time slice), or null at set-up
     */
    public static SimThread driven(Machine machine, String name, SimThread creator) {
        return new SimThread(machine, name, 0, creator, null, null, false);
    }

    /** Makes the thread start running its program now (after the current event). */
    public SimThread start() {
        if (programs[0] == null) {
            throw new IllegalStateException("thread " + name() + " has no program to start (it is driven by continuations)");
        }
        if (started) {
            throw new IllegalStateException("thread " + name() + " started twice");
        }
        started = true;
        sim.schedule(wake, 0);
        return this;
    }

    /** The simulation. */
    public Simulation sim() {
        return sim;
    }

    /** The current request, or null. */
    public Request request() {
        return request;
    }

    /** Replaces the current request. */
    public void setRequest(Request r) {
        this.request = r;
    }

    /** Whether the thread has ended (program done or exit step). */
    public boolean isFinished() {
        return finished;
    }

    /** Stores the current time in the thread's stamp slot {@code slot}. */
    public void mark(int slot) {
        if (slot < 0) {
            throw new IllegalArgumentException("stamp slot must be >= 0, got " + slot);
        }
        if (stamps == null || slot >= stamps.length) {
            int n = Math.max(8, slot + 1);
            int old = stamps == null ? 0 : stamps.length;
            stamps = stamps == null ? new double[n] : Arrays.copyOf(stamps, n);
            Arrays.fill(stamps, old, n, Double.NaN);
        }
        stamps[slot] = sim.now();
    }

    /** The time in the thread's stamp slot {@code slot}, NaN if unset. */
    public double stamp(int slot) {
        return stamps == null || slot < 0 || slot >= stamps.length ? Double.NaN : stamps[slot];
    }

    /** Time since the thread's stamp {@code slot} (NaN if unset). */
    public double since(int slot) {
        return sim.now() - stamp(slot);
    }

    /**
     * For custom steps: uses {@code work} ms of CPU; the step must return false, and the thread
     * goes on with the next step when the CPU burst is done.
     */
    public void compute(double work) {
        useCpu(work);
    }

    /** For custom steps: sleeps {@code ms}; the step must return false. */
    public void sleep(double ms) {
        if (wake.isScheduled()) {
            throw new IllegalStateException("thread " + name() + " is already due to wake up");
        }
        sim.schedule(wake, ms);
    }

    /**
     * For custom steps and blocks: ends the thread's wait; it goes on with its next step after the
     * current event.
     */
    public void resume() {
        if (wake.isScheduled()) {
            throw new IllegalStateException("thread " + name() + " resumed twice");
        }
        sim.schedule(wake, 0);
    }

    /**
     * Continuation style: runs {@code then} after {@code ms} of CPU (at least {@link #MIN_BURST}).
     * A continuation that returns without asking for CPU leaves the thread blocked.
     */
    public void compute(double ms, Runnable then) {
        next = Objects.requireNonNull(then, "then");
        blocked = false;
        useCpu(Math.max(MIN_BURST, ms));
    }

    /** Continuation style: the thread asks for nothing until {@link #wake}. */
    public void block() {
        blocked = true;
        next = null;
    }

    /** Continuation style: whether the thread is blocked (waiting for a wake-up). */
    public boolean isBlocked() {
        return blocked;
    }

    /**
     * Continuation style: wakes a blocked thread; it pays {@code costMs} of CPU for waking up (at
     * least a minimal burst, so {@code then} runs once the thread really has a CPU), then runs
     * {@code then}.
     *
     * @throws IllegalStateException if the thread is not blocked
     */
    public void wake(double costMs, Runnable then) {
        if (!blocked) {
            throw new IllegalStateException("thread " + name() + " woken while not blocked");
        }
        compute(costMs, then);
    }

    /** Continuation style: ends the thread. */
    public void terminate() {
        blocked = true;
        next = null;
        finish();
    }

    void deliver(Request r) {
        request = r;
        resume();
    }

    void push(Program p) {
        if (depth == programs.length) {
            programs = Arrays.copyOf(programs, depth * 2);
            pcs = Arrays.copyOf(pcs, depth * 2);
        }
        programs[depth] = p;
        pcs[depth] = 0;
        depth++;
    }

    void finish() {
        finished = true;
        depth = 0;
        exit();
    }

    @Override
    protected final void onCpuDone() {
        Runnable r = next;
        if (r != null) {
            next = null;
            blocked = true; // unless r asks for more CPU
            r.run();
            return;
        }
        // Straight on, inside the scheduler's callback: a following CPU step keeps the CPU.
        proceed();
    }

    /** Runs steps until one blocks or the thread ends. */
    private void proceed() {
        spin = 0;
        while (!finished) {
            int top = depth - 1;
            Program p = programs[top];
            int pc = pcs[top];
            if (pc == p.size()) {
                if (p.repeats()) {
                    pcs[top] = 0;
                } else if (top == 0) {
                    finish();
                    return;
                } else {
                    programs[top] = null;
                    depth = top;
                }
                continue;
            }
            pcs[top] = pc + 1;
            if (++spin > SPIN_LIMIT) {
                throw new IllegalStateException("thread " + name() + " ran " + SPIN_LIMIT + " steps at time "
                        + sim.now() + " ms without blocking; program '" + p.name() + "' needs a blocking step");
            }
            if (!p.step(pc).execute(this)) {
                return;
            }
        }
    }
}
