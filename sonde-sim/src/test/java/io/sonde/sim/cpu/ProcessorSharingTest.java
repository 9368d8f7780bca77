package io.sonde.sim.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ProcessorSharingTest {
    @Test
    void singleCpuSharesEqually() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.processorSharing());
        h.cpuBound("a", 10).start();
        h.cpuBound("b", 20).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // Both at rate 1/2 until a is done at 20 (10 ms of work each), then b alone: 20 + 10.
        assertThat(h.log).containsExactly("a@20", "b@30");
    }

    @Test
    void multiCpuRateIsCpusOverMaxOfCpusAndThreads() {
        SchedulerHarness h = new SchedulerHarness(2, SchedulerFactory.processorSharing());
        h.cpuBound("a", 10).start();
        h.cpuBound("b", 10).start();
        h.cpuBound("c", 10).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // Three threads on two CPUs: each at rate 2/3, so 10 ms of work take 15 ms.
        assertThat(h.log).containsExactly("a@15", "b@15", "c@15");
        assertThat(h.machine.utilization().value()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void fewerThreadsThanCpusRunAtFullSpeed() {
        SchedulerHarness h = new SchedulerHarness(2, SchedulerFactory.processorSharing());
        h.cpuBound("a", 10).start();
        h.cpuBound("b", 20).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        assertThat(h.log).containsExactly("a@10", "b@20");
        // Busy CPUs: 2 for 10 ms, 1 for 10 ms, over 20 ms on 2 CPUs -> 0.75.
        assertThat(h.machine.utilization().value()).isCloseTo(0.75, within(1e-9));
    }

    @Test
    void lateArrivalSlowsDownTheRunningThread() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.processorSharing());
        h.cpuBound("a", 10).start();
        h.sleeper("s", 4, 2).start();
        h.sim.run(30);
        // a alone for 4 ms (6 left); then both at rate 1/2: s done at 8, a has 4 left; a done at 12.
        assertThat(h.log).startsWith("s@8", "a@12");
    }

    @Test
    void machineSpeedScalesDemands() {
        io.sonde.sim.engine.Simulation sim = new io.sonde.sim.engine.Simulation(1, 0);
        Machine fast = new Machine(sim, "fast", 1, 2.0, SchedulerFactory.processorSharing());
        java.util.List<Double> ends = new java.util.ArrayList<>();
        new io.sonde.sim.blocks.SimThread(fast, "t", io.sonde.sim.blocks.Program.once("t")
                .cpu(io.sonde.sim.random.SampleSource.constant(10)).action("end", (t, r) -> ends.add(sim.now()))
                .build()).start();
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(ends).containsExactly(5.0);
    }
}
