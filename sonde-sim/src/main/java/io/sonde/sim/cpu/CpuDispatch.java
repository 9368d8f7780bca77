package io.sonde.sim.cpu;

/** Putting a thread on a CPU, shared by the time-slicing schedulers. */
final class CpuDispatch {
    private CpuDispatch() {}

    /**
     * Makes {@code t} the running thread of {@code cpu}. When another thread ran there last, this is
     * a context switch: it is counted, and its cost is added to {@code t}'s remaining burst (the
     * thread switched to pays it).
     */
    static void start(Machine machine, CpuThread[] running, CpuThread[] lastRan, int cpu, CpuThread t) {
        running[cpu] = t;
        t.cpu = cpu;
        t.lastCpu = cpu;
        t.state = CpuThread.RUNNING;
        if (lastRan[cpu] != t) {
            if (lastRan[cpu] != null) {
                machine.countContextSwitch();
                t.remaining += machine.contextSwitchCost();
            }
            lastRan[cpu] = t;
        }
    }
}
