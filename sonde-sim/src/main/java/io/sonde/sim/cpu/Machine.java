package io.sonde.sim.cpu;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.stats.Measure;
import io.sonde.sim.stats.TimeWeighted;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A computer: one or more identical CPUs shared by its threads under one {@link CpuScheduler}.
 * CPU demands are given in milliseconds at a reference speed and divided by {@link #speed()}.
 */
public final class Machine {
    private final Simulation sim;
    private final String name;
    private final int cpus;
    private final double speed;
    private final CpuScheduler scheduler;
    private final List<CpuThread> threads = new ArrayList<>();
    private final TimeWeighted busy;
    private long contextSwitches;
    private double contextSwitchMs;

    /** A machine at reference speed. */
    public Machine(Simulation sim, String name, int cpus, SchedulerFactory scheduler) {
        this(sim, name, cpus, 1.0, scheduler);
    }

    /**
     * A machine.
     *
     * @param sim the simulation
     * @param name a name for messages and measures
     * @param cpus number of CPUs, at least 1
     * @param speed relative speed; a demand of d ms takes d / speed ms
     * @param scheduler creates the scheduler
     */
    public Machine(Simulation sim, String name, int cpus, double speed, SchedulerFactory scheduler) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.name = Objects.requireNonNull(name, "name");
        if (cpus < 1) {
            throw new IllegalArgumentException("machine " + name + ": CPU count must be >= 1, got " + cpus);
        }
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("machine " + name + ": speed must be finite and > 0, got " + speed);
        }
        this.cpus = cpus;
        this.speed = speed;
        this.busy = new TimeWeighted(name + ".cpu_utilization", sim, cpus);
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler").create(this);
    }

    /** The simulation. */
    public Simulation sim() {
        return sim;
    }

    /** The machine's name. */
    public String name() {
        return name;
    }

    /** Number of CPUs. */
    public int cpus() {
        return cpus;
    }

    /** Relative speed. */
    public double speed() {
        return speed;
    }

    /** The scheduler. */
    public CpuScheduler scheduler() {
        return scheduler;
    }

    /** The threads alive on this machine, in creation order. */
    public List<CpuThread> threads() {
        return Collections.unmodifiableList(threads);
    }

    /** Number of busy CPUs right now. */
    public double busyCpus() {
        return busy.current();
    }

    /**
     * CPU utilisation (busy CPUs / CPUs, time-averaged) as a measure named
     * {@code NAME.cpu_utilization}; register it in the replication's measures to get it reported
     * and reset at the warm-up cut.
     */
    public TimeWeighted utilization() {
        return busy;
    }

    /** The same utilisation under another measure name (e.g. {@code cpu_utilization}). */
    public Measure utilizationAs(String measureName) {
        return new Measure() {
            @Override
            public String name() {
                return measureName;
            }

            @Override
            public double value() {
                return busy.value();
            }

            @Override
            public void reset() {
                busy.reset();
            }
        };
    }

    /**
     * Sets the CPU time (ms, not scaled by the speed) that a CPU spends switching from one thread
     * to another; the thread switched to pays it before its own work. Used by the round-robin and
     * Linux 2.4 schedulers (processor sharing has no discrete switches). Default 0.
     */
    public Machine setContextSwitchCost(double ms) {
        if (!(ms >= 0) || Double.isInfinite(ms)) {
            throw new IllegalArgumentException("machine " + name + ": context-switch cost must be finite and >= 0 ms, got " + ms);
        }
        this.contextSwitchMs = ms;
        return this;
    }

    /** The context-switch cost in ms. */
    public double contextSwitchCost() {
        return contextSwitchMs;
    }

    /** Number of times a CPU switched from one thread to another (RR and Linux 2.4). */
    public long contextSwitches() {
        return contextSwitches;
    }

    void attach(CpuThread t, CpuThread parent) {
        if (parent != null && parent.machine() != this) {
            parent = null; // a thread on another machine shares no time slice with this one
        }
        threads.add(t);
        scheduler.threadCreated(t, parent);
    }

    void detach(CpuThread t) {
        threads.remove(t);
        scheduler.threadExited(t);
    }

    void setBusy(int busyCpus) {
        if (busy.current() != busyCpus) {
            busy.set(busyCpus);
        }
    }

    void countContextSwitch() {
        contextSwitches++;
    }

    @Override
    public String toString() {
        return name + "(" + cpus + " cpu, " + scheduler.name() + ")";
    }
}
