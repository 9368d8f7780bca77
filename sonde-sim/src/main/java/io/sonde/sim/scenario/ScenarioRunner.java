package io.sonde.sim.scenario;

import io.sonde.sim.blocks.Mutex;
import io.sonde.sim.blocks.NetworkLink;
import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.RequestSink;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.scenario.ScenarioSpec.ArrivalSpec;
import io.sonde.sim.scenario.ScenarioSpec.LinkSpec;
import io.sonde.sim.scenario.ScenarioSpec.MachineSpec;
import io.sonde.sim.scenario.ScenarioSpec.ProgramSpec;
import io.sonde.sim.scenario.ScenarioSpec.ThreadSpec;
import io.sonde.sim.stats.Estimate;
import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.ReplicationResult;
import io.sonde.sim.stats.Tally;
import io.sonde.sim.workload.OpenArrivals;
import io.sonde.sim.workload.ResponseRecorder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a general model described by a scenario file (the format is documented in
 * docs/simulator.md, "Scenario files"): machines with CPUs and a scheduler, FIFO queues, mutexes,
 * network links, programs of steps, threads running them, open arrivals, and named measures.
 * The file is parsed and checked once, into a {@link ScenarioSpec}, by {@link ScenarioParser};
 * every replication is then built from the spec alone.
 */
public final class ScenarioRunner {

    /**
     * Command-line settings.
     *
     * @param variant the variant to apply (the file's {@code variants:} key), or null
     * @param arrivalRate overrides the parameter {@code arrival_rate} (per second), or null
     * @param seed the experiment seed
     * @param replications replications
     * @param cpus overrides every machine's CPU count, or null
     * @param scheduler overrides every machine's scheduler, or null
     * @param requests overrides the arrivals' request count, or null
     */
    public record Options(String variant, Double arrivalRate, long seed, int replications, Integer cpus,
            String scheduler, Integer requests) {}

    private ScenarioRunner() {}

    /** Parses and checks the file, runs the replications and returns the measures. */
    public static SimulationResult run(ScenarioFile file, Options options) {
        return run(ScenarioParser.parse(file, options), options.seed(), options.replications());
    }

    /** Checks the file without running it (used by tests and for early errors). */
    public static void check(ScenarioFile file, Options options) {
        ScenarioParser.parse(file, options);
    }

    /** Runs {@code replications} replications of {@code spec} with experiment seed {@code seed}. */
    public static SimulationResult run(ScenarioSpec spec, long seed, int replications) {
        ExperimentResult r = new Experiment(seed, replications).run(sim -> new Replication(spec, sim).run());
        SimulationResult out = new SimulationResult();
        out.info("model", spec.title());
        if (spec.variant() != null) {
            out.info("scenario", spec.variant());
        }
        if (spec.arrivalRate() != null) {
            out.info("arrival_rate_per_s", spec.arrivalRate());
        }
        out.info("seed", Long.toString(seed)).info("replications", Integer.toString(replications));
        for (Estimate e : r.estimates().values()) {
            out.put(e.name(), Double.isNaN(e.mean()) ? null : new SimulationResult.Estimate(e.mean(), e.ci95()));
        }
        out.put("events_per_s", new SimulationResult.Estimate(r.eventsPerSecond(), Double.NaN));
        return out;
    }

    /** One replication: everything is built afresh on its simulation from the spec. */
    private static final class Replication {
        private final ScenarioSpec spec;
        private final Simulation sim;
        private final Measures measures;
        private final Map<String, Tally> tallies = new HashMap<>();
        private final Map<String, Machine> machines = new HashMap<>();
        private final Map<String, RequestSink> sinks = new HashMap<>();
        private final Map<String, RequestQueue> queues = new HashMap<>();
        private final Map<String, Mutex> mutexes = new HashMap<>();
        private final Map<String, Program> programs = new LinkedHashMap<>();

        Replication(ScenarioSpec spec, Simulation sim) {
            this.spec = spec;
            this.sim = sim;
            this.measures = new Measures(sim);
        }

        ReplicationResult run() {
            for (String m : spec.measures()) {
                tallies.put(m, measures.tally(m));
            }
            for (MachineSpec m : spec.machines()) {
                Machine mc = new Machine(sim, m.name(), m.cpus(), m.speed(), m.scheduler().factory());
                machines.put(m.name(), mc);
                measures.add(mc.utilizationAs(m.name() + "_cpu_utilization"));
            }
            for (String q : spec.queues()) {
                RequestQueue rq = new RequestQueue(sim, q);
                queues.put(q, rq);
                sinks.put(q, rq);
            }
            for (String m : spec.mutexes()) {
                mutexes.put(m, new Mutex(sim, m));
            }
            for (LinkSpec l : spec.links()) { // ordered: a link's target exists already
                SampleSource lat = sim.sampler("link:" + l.name(), l.latency());
                sinks.put(l.name(), new NetworkLink(sim, l.name(), lat, sinks.get(l.to())));
            }
            for (ProgramSpec p : spec.programs()) {
                program(p.name());
            }
            for (ThreadSpec t : spec.threads()) {
                Machine mc = machines.get(t.machine());
                Program p = programs.get(t.program());
                for (int i = 0; i < t.count(); i++) {
                    new SimThread(mc, t.count() == 1 ? t.name() : t.name() + "-" + i, p).start();
                }
            }
            long total = 0;
            int ai = 0;
            for (ArrivalSpec a : spec.arrivals()) {
                total += a.requests();
                Tally resp = a.response() == null ? null : tallies.get(a.response());
                ResponseRecorder rec = new ResponseRecorder(measures, resp, ai == 0 ? measures.rate("throughput_per_s") : null);
                RequestSink to = sinks.get(a.to());
                OpenArrivals arr = a.poisson()
                        ? OpenArrivals.poisson(sim, "arrivals-" + ai, a.ratePerSecond(), to, rec, a.requests())
                        : OpenArrivals.deterministic(sim, a.ratePerSecond(), to, rec, a.requests());
                if (a.type() >= 0) {
                    int type = a.type();
                    arr.initializer(req -> req.setType(type));
                }
                arr.start();
                ai++;
            }
            long warm = (long) Math.floor(total * spec.warmupFraction());
            if (warm > 0) {
                measures.warmUpCompletions(warm);
            }
            sim.run(Double.POSITIVE_INFINITY);
            return measures.snapshot();
        }

        /** The built program {@code name}, building it (and the programs it runs) on first use. */
        private Program program(String name) {
            Program p = programs.get(name);
            if (p == null) {
                ProgramSpec ps = spec.program(name); // the parser ruled out cycles
                Program.Builder b = ps.loop() ? Program.loop(name) : Program.once(name);
                steps(b, ps.steps(), name);
                p = b.build();
                programs.put(name, p);
            }
            return p;
        }

        private void steps(Program.Builder b, List<StepSpec> steps, String name) {
            int i = 0;
            for (StepSpec s : steps) {
                // Each random step draws from its own stream, named after its place.
                String stream = name + "#" + (i++);
                if (s instanceof StepSpec.Cpu c) {
                    b.cpu(sampler(stream, c.demand()));
                } else if (s instanceof StepSpec.Delay d) {
                    b.delay(sampler(stream, d.delay()));
                } else if (s instanceof StepSpec.Lock l) {
                    b.lock(mutexes.get(l.mutex()));
                } else if (s instanceof StepSpec.Unlock u) {
                    b.unlock(mutexes.get(u.mutex()));
                } else if (s instanceof StepSpec.Get g) {
                    b.get(queues.get(g.queue()));
                } else if (s instanceof StepSpec.Forward f) {
                    b.forward(sinks.get(f.target()));
                } else if (s instanceof StepSpec.Call c) {
                    b.call(sinks.get(c.target()));
                } else if (s instanceof StepSpec.Reply) {
                    b.reply();
                } else if (s instanceof StepSpec.Exit) {
                    b.exit();
                } else if (s instanceof StepSpec.Mark m) {
                    b.mark(m.slot());
                } else if (s instanceof StepSpec.Record r) {
                    b.record(tallies.get(r.measure()), r.slot());
                } else if (s instanceof StepSpec.SetType t) {
                    int type = t.id();
                    b.action("type " + type, (thread, req) -> {
                        if (req != null) {
                            req.setType(type);
                        }
                    });
                } else if (s instanceof StepSpec.ByType bt) {
                    b.byType(byType(bt, name));
                } else if (s instanceof StepSpec.Run r) {
                    b.run(program(r.program()));
                } else {
                    throw new IllegalStateException("step kind without a builder: " + s);
                }
            }
        }

        private Program[] byType(StepSpec.ByType bt, String name) {
            Program[] byType = new Program[spec.requestTypes().size()];
            for (StepSpec.ByType.Case c : bt.cases()) {
                Program.Builder sub = Program.once(name + "/" + c.type());
                steps(sub, c.steps(), name + "/" + c.type());
                byType[c.id()] = sub.build();
            }
            for (int t = 0; t < byType.length; t++) {
                if (byType[t] == null) {
                    // A type without a branch does nothing here.
                    byType[t] = Program.once(name + "/other").action("none", (thread, req) -> { }).build();
                }
            }
            return byType;
        }

        private SampleSource sampler(String stream, Distribution d) {
            if (d.variance() == 0) {
                return SampleSource.constant(d.mean());
            }
            return sim.sampler(stream, d);
        }
    }
}
