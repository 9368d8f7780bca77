package io.sonde.sim.cpu;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import java.util.ArrayList;
import java.util.List;

/** Small deterministic set-ups for scheduler tests: threads whose bursts and sleeps are fixed. */
final class SchedulerHarness {
    final Simulation sim = new Simulation(1, 0);
    final Machine machine;
    /** "thread@time" for every completed burst, in completion order. */
    final List<String> log = new ArrayList<>();

    SchedulerHarness(int cpus, SchedulerFactory scheduler) {
        machine = new Machine(sim, "m", cpus, scheduler);
    }

    /** A thread that computes the given bursts (ms) one after another, logging each end. */
    SimThread cpuBound(String name, double... bursts) {
        Program.Builder b = Program.once(name);
        for (double d : bursts) {
            b.cpu(SampleSource.constant(d)).action("log", (t, r) -> log.add(name + "@" + fmt(sim.now())));
        }
        return new SimThread(machine, name, b.build());
    }

    /** A thread that forever sleeps {@code sleep} ms then computes {@code burst} ms, logging each burst end. */
    SimThread sleeper(String name, double sleep, double burst) {
        Program p = Program.loop(name).delay(SampleSource.constant(sleep)).cpu(SampleSource.constant(burst))
                .action("log", (t, r) -> log.add(name + "@" + fmt(sim.now()))).build();
        return new SimThread(machine, name, p);
    }

    static String fmt(double t) {
        long r = Math.round(t * 1000);
        return r % 1000 == 0 ? Long.toString(r / 1000) : Double.toString(r / 1000.0);
    }
}
