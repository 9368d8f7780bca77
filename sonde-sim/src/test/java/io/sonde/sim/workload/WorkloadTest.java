package io.sonde.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.Tally;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadTest {
    @Test
    void traceReplayArrivesAtTheRecordedGaps() {
        Simulation sim = new Simulation(1, 0);
        List<Double> times = new ArrayList<>();
        OpenArrivals.trace(sim, new double[] {1, 0.5, 3}, r -> times.add(sim.now()), null).start();
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(times).containsExactly(1.0, 1.5, 4.5);
    }

    @Test
    void deterministicArrivalsRespectTheLimit() {
        Simulation sim = new Simulation(1, 0);
        List<Double> times = new ArrayList<>();
        OpenArrivals a = OpenArrivals.deterministic(sim, 100, r -> times.add(sim.now()), null, 3).start();
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(times).containsExactly(10.0, 20.0, 30.0);
        assertThat(a.generated()).isEqualTo(3);
    }

    @Test
    void poissonArrivalsHaveTheRequestedRate() {
        Simulation sim = new Simulation(1, 0);
        long[] n = new long[1];
        OpenArrivals.poisson(sim, "arrivals", 250, r -> n[0]++, null, Long.MAX_VALUE).start();
        sim.run(400_000); // 400 s
        assertThat(n[0] / 400.0).isCloseTo(250, within(2.5));
    }

    @Test
    void closedClientsKeepOneRequestOutstandingAndStopAfterTheirQuota() {
        Simulation sim = new Simulation(1, 0);
        Measures m = new Measures(sim);
        Machine machine = new Machine(sim, "m", 1, SchedulerFactory.processorSharing());
        RequestQueue q = new RequestQueue(sim, "q");
        new SimThread(machine, "server", Program.loop("server").get(q).cpu(SampleSource.constant(2)).reply().build())
                .start();
        Tally rt = m.tally("rt");
        boolean[] done = new boolean[1];
        ClosedClients clients = new ClosedClients(sim, 3, SampleSource.constant(10), i -> q, 4,
                new ResponseRecorder(m, rt, null)).whenAllDone(() -> done[0] = true).start();
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(done[0]).isTrue();
        assertThat(clients.repliesReceived()).isEqualTo(12);
        assertThat(rt.count()).isEqualTo(12);
        // Round 1: all three at 0, served 0-2, 2-4, 4-6 (response 2, 4, 6); they think 10 ms, so
        // they come back at 12, 14, 16 and never meet again: response 2 from then on.
        assertThat(rt.max()).isEqualTo(6.0);
        assertThat(rt.mean()).isCloseTo((2 + 4 + 6 + 9 * 2) / 12.0, within(1e-9));
        assertThat(q.size()).isZero();
    }
}
