package io.sonde.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.stats.ExperimentResult;
import org.junit.jupiter.api.Test;

/** Same seed, same output byte for byte; different seeds, different samples that still cover the truth. */
class ReproducibilityTest {
    private static ExperimentResult mm1(long seed, int parallelism) {
        return new Experiment(seed, 4).parallelism(parallelism)
                .run(sim -> QueueingModels.fifo(sim, 1, 0.6, Distribution.exponential(1), 1_000, 20_000));
    }

    @Test
    void sameSeedGivesIdenticalOutputWhateverTheParallelism() {
        String a = mm1(7, 1).format();
        String b = mm1(7, 4).format();
        String c = mm1(7, 2).format();
        assertThat(b).isEqualTo(a);
        assertThat(c).isEqualTo(a);
        assertThat(a).contains("wait_ms mean=");
    }

    @Test
    void differentSeedsGiveDifferentSamples() {
        assertThat(mm1(7, 2).format()).isNotEqualTo(mm1(8, 2).format());
    }

    @Test
    void intervalsFromDifferentSeedsCoverTheClosedForm() {
        double rho = 0.6;
        double exact = rho / (1 - rho);
        int covered = 0;
        int seeds = 8;
        for (long seed = 100; seed < 100 + seeds; seed++) {
            ExperimentResult r = new Experiment(seed, 5)
                    .run(sim -> QueueingModels.fifo(sim, 1, rho, Distribution.exponential(1), 2_000, 40_000));
            if (r.estimate("wait_ms").covers(exact)) {
                covered++;
            }
        }
        // A 95 % interval misses with probability 0.05; 6 or more of 8 covering fails with
        // probability below 0.6 % for a correct simulator (and the seeds are fixed).
        assertThat(covered).isGreaterThanOrEqualTo(6);
    }

    @Test
    void priorityAndRoundRobinSchedulersAreReproducibleToo() {
        for (SchedulerFactory f : new SchedulerFactory[] {SchedulerFactory.linux24(), SchedulerFactory.roundRobin(2)}) {
            String a = new Experiment(3, 3).parallelism(1)
                    .run(sim -> QueueingModels.psThreadPerRequest(sim, f, 2, 1.2, 1, 500, 5_000)).format();
            String b = new Experiment(3, 3)
                    .run(sim -> QueueingModels.psThreadPerRequest(sim, f, 2, 1.2, 1, 500, 5_000)).format();
            assertThat(b).isEqualTo(a);
        }
    }
}
