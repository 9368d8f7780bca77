package io.sonde.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.Measures;
import org.junit.jupiter.api.Test;

/** The "model in 15 lines" of docs/simulator.md, kept compiling and running. */
class DocExampleTest {
    @Test
    void theDocumentedThreadPoolModelRuns() {
        long seed = 42;
        ExperimentResult r = new Experiment(seed, 4).run(sim -> {
            Measures m = new Measures(sim);
            Machine server = new Machine(sim, "server", 1, SchedulerFactory.linux24());
            m.add(server.utilizationAs("cpu_utilization"));
            RequestQueue connection = new RequestQueue(sim, "connection").recordWaitingTimes(m.tally("receiver_queue_ms"));
            RequestQueue pool = new RequestQueue(sim, "pool").recordWaitingTimes(m.tally("dispatcher_queue_ms"));
            Program receiver = Program.loop("receiver").get(connection)
                    .cpu(sim.sampler("b_rec", Distribution.exponential(0.9)))
                    .forward(pool).cpu(SampleSource.constant(0.1)).build();
            Program dispatcher = Program.loop("dispatcher").get(pool)
                    .cpu(sim.sampler("b_ser", Distribution.exponential(5))).reply().build();
            new SimThread(server, "receiver", receiver).start();
            for (int i = 0; i < 4; i++) {
                new SimThread(server, "dispatcher-" + i, dispatcher).start();
            }
            OpenArrivals.poisson(sim, "arrivals", 100, connection,
                    ResponseRecorder.of(m, "response_time_ms", "throughput_per_s"), Long.MAX_VALUE).start();
            m.warmUpCompletions(1_000);
            m.stopAfterCompletions(15_000, sim::stop);
            sim.run(Double.POSITIVE_INFINITY);
            return m.snapshot();
        });
        assertThat(r.estimate("response_time_ms").mean()).isGreaterThan(5.9); // at least the demands
        assertThat(r.estimate("throughput_per_s").mean()).isBetween(95.0, 105.0);
        assertThat(r.estimate("cpu_utilization").mean()).isBetween(0.55, 0.65); // 100/s x 6 ms
        assertThat(r.format()).startsWith("seed=42 replications=4");
    }
}
