package io.sonde.sim.blocks;

import io.sonde.sim.cpu.CpuThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.Arrays;
import java.util.Objects;

/**
 * A simulated thread: runs a {@link Program} on a {@link Machine}, one step after another,
 * blocking in CPU bursts (scheduled by the machine's scheduler), delays, mutexes, queue gets and
 * nested calls. It holds at most one current request.
 *
 * <p>Wake-ups (a request delivered, a mutex handed over, a reply, the end of a delay) take effect
 * through an event at the current time rather than by a nested call, so the thread that caused
 * them finishes its own instantaneous steps first — as on a real CPU, where the waker keeps
 * running until the scheduler decides otherwise — and call stacks stay shallow.
 */
public class SimThread extends CpuThread {
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
        super(machine, name, nice, creator);
        this.sim = machine.sim();
        programs[0] = Objects.requireNonNull(program, "program");
        depth = 1;
        this.request = request;
    }

    /** Makes the thread start running its program now (after the current event). */
    public SimThread start() {
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
