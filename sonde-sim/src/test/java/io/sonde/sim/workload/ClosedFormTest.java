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
 * the closed form over long runs, and its 95 % confidence interval covering the closed form.
 * Times are in ms; service means are 1 ms.
 */
class ClosedFormTest {
    private static final int REPLICATIONS = 6;

    static void assertClose(Estimate e, double exact) {
        System.out.printf("%s: simulated %.5f ± %.5f, exact %.5f (%+.2f %%)%n", e.name(), e.mean(), e.ci95(), exact,
                100 * (e.mean() - exact) / exact);
        assertThat(e.mean()).as(e.name()).isCloseTo(exact, within(0.02 * exact));
        assertThat(e.covers(exact)).as("95 %% CI of %s covers %s", e, exact).isTrue();
    }

    @Test
    void mm1MeanWaitingTime() {
        double rho = 0.6;
        ExperimentResult r = new Experiment(11, REPLICATIONS)
                .run(sim -> QueueingModels.fifo(sim, 1, rho, Distribution.exponential(1), 2_000, 150_000));
        assertClose(r.estimate("wait_ms"), rho / (1 - rho));
        assertClose(r.estimate("response_ms"), 1 / (1 - rho));
        assertThat(r.estimate("cpu_utilization").mean()).isCloseTo(rho, within(0.01));
        assertThat(r.estimate("throughput_per_s").mean()).isCloseTo(rho * 1000, within(0.01 * rho * 1000));
    }

    @Test
    void mmcMeanWaitingTimeIsErlangC() {
        int c = 3;
        double lambda = 2.1; // per ms, mu = 1 per ms: offered load 2.1, rho = 0.7
        ExperimentResult r = new Experiment(12, REPLICATIONS)
                .run(sim -> QueueingModels.fifo(sim, c, lambda, Distribution.exponential(1), 5_000, 200_000));
        double wq = erlangC(c, lambda) / (c - lambda);
        assertClose(r.estimate("wait_ms"), wq);
        assertThat(r.estimate("cpu_utilization").mean()).isCloseTo(lambda / c, within(0.01));
    }

    @Test
    void md1MeanWaitingTimeIsPollaczekKhinchine() {
        double rho = 0.6;
        ExperimentResult r = new Experiment(13, REPLICATIONS)
                .run(sim -> QueueingModels.fifo(sim, 1, rho, Distribution.deterministic(1), 2_000, 100_000));
        assertClose(r.estimate("wait_ms"), rho / (2 * (1 - rho)));
    }

    @Test
    void processorSharingMm1ResponseTime() {
        double rho = 0.6;
        ExperimentResult r = new Experiment(14, REPLICATIONS).run(sim -> QueueingModels.psThreadPerRequest(sim,
                SchedulerFactory.processorSharing(), 1, rho, 1, 2_000, 150_000));
        assertClose(r.estimate("response_ms"), 1 / (1 - rho));
    }

    @Test
    void machineRepairmanMatchesExactMva() {
        int n = 5;
        double think = 4;
        double service = 1;
        ExperimentResult r = new Experiment(15, REPLICATIONS)
                .run(sim -> QueueingModels.repairman(sim, n, think, service, 2_000, 100_000));
        double[] rx = mva(n, think, service);
        assertClose(r.estimate("response_ms"), rx[0]);
        assertClose(r.estimate("throughput_per_s"), rx[1] * 1000);
    }

    /** Erlang's C formula: probability of waiting in M/M/c with offered load a (Erlangs). */
    static double erlangC(int c, double a) {
        double term = 1;
        double sum = 1; // k = 0
        for (int k = 1; k < c; k++) {
            term *= a / k;
            sum += term;
        }
        double last = term * a / c * c / (c - a);
        return last / (sum + last);
    }

    /** Exact MVA for one queueing station and a delay (think) station: {R(N), X(N) per ms}. */
    static double[] mva(int clients, double think, double service) {
        double q = 0;
        double rt = 0;
        double x = 0;
        for (int n = 1; n <= clients; n++) {
            rt = service * (1 + q);
            x = n / (rt + think);
            q = x * rt;
        }
        return new double[] {rt, x};
    }

    @Test
    void closedFormHelpersAgreeWithKnownValues() {
        // M/M/1 is Erlang C with c = 1: P(wait) = rho.
        assertThat(erlangC(1, 0.7)).isCloseTo(0.7, within(1e-12));
        // Textbook value: c = 2, a = 1 -> C = 1/3.
        assertThat(erlangC(2, 1.0)).isCloseTo(1.0 / 3, within(1e-12));
        // One client never waits: R = S.
        assertThat(mva(1, 4, 1)[0]).isCloseTo(1.0, within(1e-12));
    }
}
