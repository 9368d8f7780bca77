package io.sonde.sim.cpu;

import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.ArrayDeque;

/**
 * Round robin on c CPUs: one FIFO run queue; a thread runs until its burst ends or its quantum
 * expires; on expiry it goes to the tail of the queue if another thread waits (otherwise it gets
 * a fresh quantum and goes on). A thread that goes on computing right after a burst keeps the
 * rest of its quantum; a thread that wakes up joins the tail and gets a full quantum. No
 * preemption on wake-up.
 */
public final class RoundRobin implements CpuScheduler {
    private static final double EPS = 1e-12;
    private final Machine machine;
    private final Simulation sim;
    private final double quantum;
    private final CpuThread[] running;
    private final CpuThread[] lastRan;
    private final double[] burstStart;
    private final double[] quantumLeft;
    /** Whether the CPU's pending event is the end of the burst (rather than of the quantum). */
    private final boolean[] endsBurst;
    private final Event[] cpuEvents;
    private final ArrayDeque<CpuThread> ready = new ArrayDeque<>();
    private int busy;

    RoundRobin(Machine machine, double quantum) {
        this.machine = machine;
        this.sim = machine.sim();
        this.quantum = quantum;
        int c = machine.cpus();
        running = new CpuThread[c];
        lastRan = new CpuThread[c];
        burstStart = new double[c];
        quantumLeft = new double[c];
        endsBurst = new boolean[c];
        cpuEvents = CpuEvents.perCpu(c, this::onCpuEvent);
    }

    /** The quantum in ms. */
    public double quantum() {
        return quantum;
    }

    @Override
    public String name() {
        return "rr(" + quantum + "ms)";
    }

    @Override
    public void threadCreated(CpuThread thread, CpuThread parent) {
        // nothing to set up
    }

    @Override
    public void threadExited(CpuThread thread) {
        // lastRan keeps pointing at it: switching away from an exited thread is a switch too.
    }

    @Override
    public int runnable() {
        return busy + ready.size();
    }

    @Override
    public void demand(CpuThread t, double time) {
        t.remaining = time;
        if (t.state == CpuThread.CALLBACK) {
            t.state = CpuThread.RUNNING; // goes on on its CPU; onCpuEvent resumes it
            return;
        }
        t.state = CpuThread.READY;
        for (int c = 0; c < running.length; c++) {
            if (running[c] == null) {
                start(c, t);
                return;
            }
        }
        ready.addLast(t);
    }

    private void start(int cpu, CpuThread t) {
        CpuDispatch.start(machine, running, lastRan, cpu, t);
        quantumLeft[cpu] = quantum;
        busy++;
        machine.setBusy(busy);
        resume(cpu, t);
    }

    private void resume(int cpu, CpuThread t) {
        burstStart[cpu] = sim.now();
        // Decided here rather than by comparing remaining work with 0 when the event fires:
        // with a large clock value, rounding could otherwise leave a sub-ulp rest forever.
        endsBurst[cpu] = t.remaining <= quantumLeft[cpu];
        sim.schedule(cpuEvents[cpu], endsBurst[cpu] ? t.remaining : quantumLeft[cpu]);
    }

    private void onCpuEvent(int cpu) {
        CpuThread t = running[cpu];
        double elapsed = sim.now() - burstStart[cpu];
        t.remaining -= elapsed;
        quantumLeft[cpu] -= elapsed;
        if (endsBurst[cpu]) {
            t.remaining = 0;
            t.state = CpuThread.CALLBACK;
            t.completeBurst();
            if (t.state == CpuThread.RUNNING) {
                // It goes on computing: keep the quantum's rest, or yield if the quantum is used up.
                if (quantumLeft[cpu] > EPS) {
                    resume(cpu, t);
                } else if (ready.isEmpty()) {
                    quantumLeft[cpu] = quantum;
                    resume(cpu, t);
                } else {
                    t.state = CpuThread.READY;
                    ready.addLast(t);
                    release(cpu, t);
                }
            } else {
                t.state = CpuThread.OFF;
                release(cpu, t);
            }
        } else if (ready.isEmpty()) {
            quantumLeft[cpu] = quantum;
            resume(cpu, t);
        } else {
            t.state = CpuThread.READY;
            ready.addLast(t);
            release(cpu, t);
        }
    }

    private void release(int cpu, CpuThread t) {
        running[cpu] = null;
        t.cpu = -1;
        busy--;
        CpuThread next = ready.pollFirst();
        if (next != null) {
            start(cpu, next);
        } else {
            machine.setBusy(busy);
        }
    }
}
