package io.sonde.sim.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.sim.engine.Simulation;
import org.junit.jupiter.api.Test;

class SchedulerKindTest {

    @Test
    void parsesEverySpellingAndRejectsOthersNamingThem() {
        for (SchedulerKind k : SchedulerKind.values()) {
            assertThat(SchedulerKind.parse(" " + k.spelling().toUpperCase() + " ")).isSameAs(k);
        }
        assertThatThrownBy(() -> SchedulerKind.parse("fifo"))
                .hasMessageContaining("'fifo'").hasMessageContaining("ps, rr, linux24");
    }

    @Test
    void eachKindBuildsItsSchedulerWithTheGivenTick() {
        Simulation sim = new Simulation(1, 0);
        assertThat(new Machine(sim, "a", 1, SchedulerKind.PROCESSOR_SHARING.factory(10, 6)).scheduler())
                .isInstanceOf(ProcessorSharing.class);
        assertThat(new Machine(sim, "b", 1, SchedulerKind.ROUND_ROBIN.factory(5, 6)).scheduler())
                .isInstanceOf(RoundRobin.class);
        assertThat(new Machine(sim, "c", 1, SchedulerKind.LINUX24.factory(10, 6)).scheduler())
                .isInstanceOf(Linux24Scheduler.class);
    }

    @Test
    void specParsesQuantaAndKeepsTheOldErrors() {
        assertThat(SchedulerSpec.parse("rr:5ms")).isEqualTo(new SchedulerSpec(SchedulerKind.ROUND_ROBIN, 5, 6));
        assertThat(SchedulerSpec.parse("rr")).isEqualTo(new SchedulerSpec(SchedulerKind.ROUND_ROBIN, 10, 6));
        assertThat(SchedulerSpec.parse("LINUX24")).isEqualTo(SchedulerSpec.of(SchedulerKind.LINUX24));
        assertThatThrownBy(() -> SchedulerSpec.parse("rr:fast")).hasMessageContaining("quantum 'fast' is not a number");
        assertThatThrownBy(() -> SchedulerSpec.parse("rr:0")).hasMessageContaining("quantum must be finite and > 0");
        assertThatThrownBy(() -> SchedulerSpec.parse("cfs")).hasMessageContaining("unknown scheduler 'cfs'")
                .hasMessageContaining("rr:QUANTUMms");
    }
}
