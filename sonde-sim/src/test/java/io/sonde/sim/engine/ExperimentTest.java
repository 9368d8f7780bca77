package io.sonde.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.ReplicationResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExperimentTest {
    private static ReplicationResult uniformMean(Simulation sim) {
        var s = sim.stream("u");
        double sum = 0;
        for (int i = 0; i < 1000; i++) {
            sum += s.nextDouble();
        }
        Map<String, Double> v = new LinkedHashMap<>();
        v.put("mean", sum / 1000);
        v.put("replication", (double) sim.replication());
        return new ReplicationResult(v);
    }

    @Test
    void combinesReplicationsInIndexOrderWhateverTheThreads() {
        ExperimentResult one = new Experiment(5, 7).parallelism(1).run(ExperimentTest::uniformMean);
        ExperimentResult many = new Experiment(5, 7).run(ExperimentTest::uniformMean);
        assertThat(many.format()).isEqualTo(one.format());
        assertThat(many.estimate("replication").values()).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(many.estimate("mean").covers(0.5)).isTrue();
    }

    @Test
    void aFailingReplicationFailsTheExperimentWithItsOwnException() {
        Experiment e = new Experiment(5, 4);
        assertThatThrownBy(() -> e.run(sim -> {
            if (sim.replication() == 2) {
                throw new IllegalArgumentException("bad model in replication 2");
            }
            return uniformMean(sim);
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("bad model in replication 2");
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new Experiment(1, 0)).hasMessageContaining("replications must be >= 1");
        assertThatThrownBy(() -> new Experiment(1, 2).parallelism(0)).hasMessageContaining("parallelism");
    }
}
