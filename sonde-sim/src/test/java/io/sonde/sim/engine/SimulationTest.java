package io.sonde.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationTest {
    @Test
    void eventsAtEqualTimesFireInSchedulingOrder() {
        Simulation sim = new Simulation(1, 0);
        List<String> fired = new ArrayList<>();
        sim.after(5, () -> fired.add("a"));
        sim.after(3, () -> fired.add("b"));
        sim.after(5, () -> fired.add("c"));
        sim.after(5, () -> sim.after(0, () -> fired.add("d")));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(fired).containsExactly("b", "a", "c", "d");
        assertThat(sim.now()).isEqualTo(5.0);
        assertThat(sim.eventCount()).isEqualTo(5);
    }

    @Test
    void runUntilStopsBeforeLaterEventsAndAdvancesTheClock() {
        Simulation sim = new Simulation(1, 0);
        List<Double> fired = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            sim.after(i * 10, () -> fired.add(sim.now()));
        }
        sim.run(35);
        assertThat(fired).containsExactly(10.0, 20.0, 30.0);
        assertThat(sim.now()).isEqualTo(35.0);
        sim.run(40);
        assertThat(fired).endsWith(40.0);
        assertThat(sim.pendingEvents()).isEqualTo(6);
    }

    @Test
    void stopEndsTheRunAfterTheCurrentEvent() {
        Simulation sim = new Simulation(1, 0);
        List<Double> fired = new ArrayList<>();
        sim.after(1, () -> fired.add(1.0));
        sim.after(2, () -> {
            fired.add(2.0);
            sim.stop();
        });
        sim.after(3, () -> fired.add(3.0));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(fired).containsExactly(1.0, 2.0);
        assertThat(sim.isStopped()).isTrue();
    }

    @Test
    void reschedulingMovesAnEventInsteadOfDuplicatingIt() {
        Simulation sim = new Simulation(1, 0);
        int[] count = new int[1];
        Event e = new Event() {
            @Override
            protected void fire() {
                count[0]++;
            }
        };
        sim.schedule(e, 10);
        sim.schedule(e, 3);
        assertThat(e.scheduledTime()).isEqualTo(3.0);
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(count[0]).isEqualTo(1);
        assertThat(sim.now()).isEqualTo(3.0);
    }

    @Test
    void rejectsNegativeDelaysAndPastTimes() {
        Simulation sim = new Simulation(1, 0);
        sim.run(10);
        Event e = new Event() {
            @Override
            protected void fire() {}
        };
        assertThatThrownBy(() -> sim.schedule(e, -1)).hasMessageContaining("delay must be >= 0");
        assertThatThrownBy(() -> sim.scheduleAt(e, 5)).hasMessageContaining("before now");
        assertThatThrownBy(() -> sim.schedule(e, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void streamsDependOnSeedReplicationAndName() {
        long a = new Simulation(1, 0).stream("x").nextLong();
        assertThat(new Simulation(1, 0).stream("x").nextLong()).isEqualTo(a);
        assertThat(new Simulation(2, 0).stream("x").nextLong()).isNotEqualTo(a);
        assertThat(new Simulation(1, 1).stream("x").nextLong()).isNotEqualTo(a);
        assertThat(new Simulation(1, 0).stream("y").nextLong()).isNotEqualTo(a);
    }
}
