package io.sonde.sim.cpu;

import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.ArrayList;
import java.util.List;

/**
 * An abstraction of the Linux 2.4 time-sharing scheduler (thesis section 4.7.2; kernel
 * {@code sched.c} of the 2.4 series, SCHED_OTHER only).
 *
 * <ul>
 *   <li>Every thread has a {@code counter}: its remaining time slice in timer ticks. A timer
 *       interrupt every {@link Config#tickMs()} (10 ms; ticks at absolute multiples of it)
 *       decrements the counter of each running thread; at 0 the thread must give up its CPU.
 *       Only the thread running at the tick is charged, as in the kernel (tick sampling).</li>
 *   <li>The next thread is the runnable one with the highest goodness,
 *       {@code counter + 20 - nice} (0 when the counter is 0). The thread that was running wins
 *       ties; otherwise the one nearest the front of the run queue (woken threads enter at the
 *       front).</li>
 *   <li>When every runnable thread has counter 0, ALL threads of the machine, blocked ones
 *       included, are recalculated: {@code counter = counter / 2 + base}, with
 *       {@code base = ((20 - nice) >> 2) + 1} ticks (6 at nice 0, i.e. 60 ms). A thread that
 *       blocks a lot keeps half its unused slice and so gets a higher goodness; the counter of a
 *       thread that always blocks converges to 11 ticks (110 ms).</li>
 *   <li>A thread that wakes up takes an idle CPU if there is one (preferring the one it last ran
 *       on), otherwise preempts the running thread with the lowest goodness if its own goodness
 *       is higher, otherwise waits in the run queue.</li>
 *   <li>A new thread gets half of its creator's remaining counter (rounded up) and the creator
 *       keeps the other half, as {@code do_fork} did; a creator left with 0 must reschedule.</li>
 * </ul>
 *
 * <p>A context switch costs {@link Machine#contextSwitchCost()} (default 0), paid by the thread
 * switched to. Simplifications: no real-time classes, no CPU-affinity or same-address-space
 * goodness bonus, an exited thread's slice is not given back to its creator.
 */
public final class Linux24Scheduler implements CpuScheduler {

    /**
     * Parameters.
     *
     * @param tickMs the timer-interrupt period in ms (10 for HZ = 100)
     * @param baseTicks base time slice at nice 0 in ticks; other nice values scale it as the
     *     kernel's formula does (6 reproduces {@code ((20 - nice) >> 2) + 1})
     */
    public record Config(double tickMs, int baseTicks) {
        /** HZ = 100, 6-tick base slice. */
        public static final Config DEFAULT = new Config(10.0, 6);

        /** Validates. */
        public Config {
            if (!(tickMs > 0) || Double.isInfinite(tickMs)) {
                throw new IllegalArgumentException("linux24 tick must be finite and > 0 ms, got " + tickMs);
            }
            if (baseTicks < 1) {
                throw new IllegalArgumentException("linux24 base slice must be >= 1 tick, got " + baseTicks);
            }
        }

        /** The base slice in ticks for a nice value. */
        public int base(int nice) {
            int kernel = ((20 - nice) >> 2) + 1;
            return baseTicks == 6 ? kernel : Math.max(1, Math.round(kernel * baseTicks / 6.0f));
        }
    }

    private static final double EPS = 1e-12;
    private final Machine machine;
    private final Simulation sim;
    private final Config config;
    private final CpuThread[] running;
    private final CpuThread[] lastRan;
    private final double[] burstStart;
    private final Event[] cpuEvents;
    /** Runnable threads not on a CPU; order irrelevant (selection uses goodness and stamp). */
    private final List<CpuThread> ready = new ArrayList<>();
    private long frontStamp;
    private long tickIndex;
    private long recalculations;
    private int busy;
    private final Event tick = new Event() {
        @Override
        protected void fire() {
            onTick();
        }
    };

    Linux24Scheduler(Machine machine, Config config) {
        this.machine = machine;
        this.sim = machine.sim();
        this.config = config;
        int c = machine.cpus();
        running = new CpuThread[c];
        lastRan = new CpuThread[c];
        burstStart = new double[c];
        cpuEvents = CpuEvents.perCpu(c, this::onBurstEnd);
    }

    @Override
    public String name() {
        return "linux24";
    }

    /** The configuration. */
    public Config config() {
        return config;
    }

    /** How many times all counters were recalculated. */
    public long recalculations() {
        return recalculations;
    }

    /** The goodness of {@code t}: 0 when its slice is used up, else counter + 20 - nice. */
    public static int goodness(CpuThread t) {
        return t.counter == 0 ? 0 : t.counter + 20 - t.nice();
    }

    @Override
    public int runnable() {
        return busy + ready.size();
    }

    @Override
    public void threadCreated(CpuThread t, CpuThread parent) {
        if (parent == null) {
            t.counter = config.base(t.nice());
            return;
        }
        t.counter = (parent.counter + 1) >> 1;
        parent.counter >>= 1;
        if (parent.counter == 0) {
            parent.needResched = true;
        }
    }

    @Override
    public void threadExited(CpuThread thread) {
        // lastRan keeps pointing at it: switching away from an exited thread is a switch too.
    }

    @Override
    public void demand(CpuThread t, double time) {
        t.remaining = time;
        if (t.state == CpuThread.CALLBACK) {
            t.state = CpuThread.RUNNING; // goes on on its CPU; onBurstEnd decides what follows
            return;
        }
        if (t.state != CpuThread.CALLBACK_PREEMPTED) {
            // A wake-up: enter the run queue at the front. (A thread that lost its CPU during
            // its own onCpuDone is still in the run queue and keeps its position.)
            t.stamp = --frontStamp;
        }
        t.state = CpuThread.READY;
        int idle = -1;
        if (t.lastCpu >= 0 && running[t.lastCpu] == null) {
            idle = t.lastCpu;
        } else {
            for (int c = 0; c < running.length; c++) {
                if (running[c] == null) {
                    idle = c;
                    break;
                }
            }
        }
        if (idle >= 0) {
            start(idle, t);
            return;
        }
        int g = goodness(t);
        int victim = -1;
        int bestGain = 0;
        for (int c = 0; c < running.length; c++) {
            int gain = g - goodness(running[c]);
            if (gain > bestGain) {
                bestGain = gain;
                victim = c;
            }
        }
        ready.add(t);
        if (victim >= 0) {
            preempt(victim);
            ready.remove(t);
            start(victim, t);
        }
    }

    /** Takes the CPU away from its current thread, which becomes ready (keeping its stamp). */
    private void preempt(int cpu) {
        CpuThread cur = running[cpu];
        if (cur.state == CpuThread.RUNNING) {
            charge(cpu, cur);
            sim.cancel(cpuEvents[cpu]);
            cur.state = CpuThread.READY;
            ready.add(cur);
        } else {
            // Inside onCpuDone: if it asks for more CPU it will queue itself (see demand()).
            cur.state = CpuThread.CALLBACK_PREEMPTED;
        }
        cur.cpu = -1;
        running[cpu] = null;
        busy--;
    }

    private void charge(int cpu, CpuThread t) {
        t.remaining -= sim.now() - burstStart[cpu];
        if (t.remaining < 0) {
            t.remaining = 0;
        }
        burstStart[cpu] = sim.now();
    }

    private void start(int cpu, CpuThread t) {
        CpuDispatch.start(machine, running, lastRan, cpu, t);
        busy++;
        machine.setBusy(busy);
        resume(cpu, t);
        if (!tick.isScheduled()) {
            // Ticks happen at absolute multiples of the period; only while some CPU is busy.
            tickIndex = (long) Math.floor(sim.now() / config.tickMs()) + 1;
            sim.scheduleAt(tick, tickIndex * config.tickMs());
        }
    }

    private void resume(int cpu, CpuThread t) {
        burstStart[cpu] = sim.now();
        sim.schedule(cpuEvents[cpu], t.remaining);
    }

    private void onBurstEnd(int cpu) {
        CpuThread t = running[cpu];
        t.remaining = 0;
        t.state = CpuThread.CALLBACK;
        t.completeBurst();
        if (running[cpu] != t) {
            // Lost this CPU during the callback (a woken thread preempted it). If it asked for
            // more CPU it is queued or already running elsewhere; otherwise it is blocked.
            if (t.state == CpuThread.CALLBACK_PREEMPTED) {
                t.state = CpuThread.OFF;
            }
            return;
        }
        if (t.state == CpuThread.RUNNING) {
            burstStart[cpu] = sim.now();
            if (t.needResched || t.counter == 0) {
                t.needResched = false;
                schedule(cpu);
            } else {
                resume(cpu, t);
            }
            return;
        }
        // Blocked (or exited): give the CPU to someone else.
        t.state = CpuThread.OFF;
        t.needResched = false;
        t.cpu = -1;
        running[cpu] = null;
        busy--;
        schedule(cpu);
    }

    /** The kernel's schedule() for one CPU: keep or replace its thread, recalculating if needed. */
    private void schedule(int cpu) {
        CpuThread prev = running[cpu];
        if (prev != null) {
            charge(cpu, prev);
        }
        while (true) {
            CpuThread best = prev;
            int bestG = prev != null ? goodness(prev) : -1;
            for (int i = 0, n = ready.size(); i < n; i++) {
                CpuThread r = ready.get(i);
                int g = goodness(r);
                if (g > bestG || (g == bestG && best != prev && r.stamp < best.stamp)) {
                    best = r;
                    bestG = g;
                }
            }
            if (best == null) {
                machine.setBusy(busy);
                return; // nothing runnable: the CPU idles
            }
            if (bestG == 0) {
                recalculate();
                continue;
            }
            if (best == prev) {
                sim.cancel(cpuEvents[cpu]);
                resume(cpu, prev);
                return;
            }
            if (prev != null) {
                preempt(cpu);
            }
            ready.remove(best);
            start(cpu, best);
            return;
        }
    }

    private void recalculate() {
        recalculations++;
        List<CpuThread> all = machine.threads();
        for (int i = 0, n = all.size(); i < n; i++) {
            CpuThread t = all.get(i);
            t.counter = (t.counter >> 1) + config.base(t.nice());
        }
    }

    private void onTick() {
        long index = tickIndex;
        boolean any = false;
        for (int c = 0; c < running.length; c++) {
            CpuThread t = running[c];
            if (t != null && t.counter > 0) {
                t.counter--;
            }
        }
        for (int c = 0; c < running.length; c++) {
            CpuThread t = running[c];
            if (t != null && t.counter == 0) {
                schedule(c);
            }
            if (running[c] != null) {
                any = true;
            }
        }
        if (any) {
            // (schedule() may have re-armed the tick through start(); this moves it to the same
            // next period without relying on floating-point floor of now / tick.)
            tickIndex = index + 1;
            sim.scheduleAt(tick, Math.max(sim.now(), tickIndex * config.tickMs()));
        }
    }
}
