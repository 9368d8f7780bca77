package io.sonde.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.stats.Estimate;
import io.sonde.sim.stats.ExperimentResult;
import org.junit.jupiter.api.Test;

/**
 * The engine, schedulers and building blocks against queueing theory: each mean within 2 % of
 * the closed form over long runs, and the 95 % interval covering it.
 */
class ClosedFormTest {
    private static final int REPLICATIONS = 8;

    private static void assertClose(Estimate e, double exact) {
        System.out.printf("%s: simulated %.5f ± %.5f, exact %.5f (%.2f %%)%n", e.name(), e.mean(), e.ci95(), exact,
                100 * (e.mean() - exact) / exact);
        assertThat(e.mean()).isCloseTo(exact, within(0.02 * exact));
        assertThat(e.covers(exact)).as("95 %% CI %s covers %s", e, exact).isTrue();
    }

    @Test
    void mm1WaitingTime() {
        double lambda = 0.7; // per ms, service mean 1 ms: rho = 0.7
        ExperimentResult r = new Experiment(11, REPLICATIONS)
                .run(sim -> QueueingModels.fifo(sim, 1, lambda, Distribution.exponential(1), 5_000, 400_000));
        double rho = lambda;
        assertClose(r.estimate("wait_ms"), rho / (1 - rho));
        assertClose(r.estimate("response_ms"), 1 / (1 - rho));
        assertThat(r.estimate("cpu_utilization").mean()).isCloseTo(rho, within(0.01));
        assertThat(r.estimate("throughput_per_s").mean()).isCloseTo(lambda * 1000, within(0.01 * lambda * 1000));
    }
}
