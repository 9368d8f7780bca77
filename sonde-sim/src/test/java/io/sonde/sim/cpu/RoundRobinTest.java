package io.sonde.sim.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RoundRobinTest {
    @Test
    void threadsAlternateEveryQuantum() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.roundRobin(10));
        h.cpuBound("a", 25).start();
        h.cpuBound("b", 25).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // a 0-10, b 10-20, a 20-30, b 30-40, a 40-45 (done), b 45-50 (done).
        assertThat(h.log).containsExactly("a@45", "b@50");
        assertThat(h.machine.contextSwitches()).isEqualTo(5);
    }

    @Test
    void aLoneThreadKeepsTheCpuAcrossQuanta() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.roundRobin(10));
        h.cpuBound("a", 35).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        assertThat(h.log).containsExactly("a@35");
        assertThat(h.machine.contextSwitches()).isZero();
    }

    @Test
    void consecutiveBurstsShareOneQuantum() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.roundRobin(10));
        // a: bursts of 6 and 6 without blocking in between; b waits for a's quantum to expire.
        h.cpuBound("a", 6, 6).start();
        h.cpuBound("b", 3).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // a 0-6 (burst 1), 6-10 (quantum over), b 10-13, a 13-15 (burst 2).
        assertThat(h.log).containsExactly("a@6", "b@13", "a@15");
    }

    @Test
    void wokenThreadWaitsAtTheTailWithoutPreempting() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.roundRobin(10));
        h.cpuBound("a", 15).start();
        h.sleeper("s", 2, 1).start();
        h.sim.run(14);
        // s wakes at 2 but a keeps the CPU until its quantum ends at 10; s runs 10-11; a done at 15.
        assertThat(h.log).startsWith("s@11");
    }

    @Test
    void twoCpusRunTwoThreadsAtOnceAndRotateTheThird() {
        SchedulerHarness h = new SchedulerHarness(2, SchedulerFactory.roundRobin(10));
        h.cpuBound("a", 20).start();
        h.cpuBound("b", 20).start();
        h.cpuBound("c", 10).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // 0-10: a on cpu0, b on cpu1, c waits. At 10: a -> tail, c on cpu0; b -> tail, a on cpu1.
        // 10-20: c (done 20) and a (done 20). At 20: b alone, done at 30.
        assertThat(h.log).containsExactlyInAnyOrder("c@20", "a@20", "b@30");
    }

    @Test
    void contextSwitchCostIsPaidByTheIncomingThreadInsideItsQuantum() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.roundRobin(10));
        h.machine.setContextSwitchCost(1);
        h.cpuBound("a", 25).start();
        h.cpuBound("b", 25).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // a 0-10; b 10-20 (1 switch + 9 work); a 20-30 (1 + 9, 6 left); b 30-40 (1 + 9, 7 left);
        // a 40-47 (1 + 6, done); b 47-55 (1 + 7, done).
        assertThat(h.log).containsExactly("a@47", "b@55");
        assertThat(h.machine.utilization().value()).isEqualTo(1.0);
    }
}
