package io.sonde.sim.workload;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.ReplicationResult;

/** Classic queueing systems built from the building blocks, for tests against closed forms. */
final class QueueingModels {
    private QueueingModels() {}

    /**
     * An M/G/c FIFO queue: c server threads sharing one queue on a machine with c CPUs (so the
     * threads never compete for a CPU). Measures: wait_ms (time in queue), response_ms,
     * throughput_per_s, cpu_utilization.
     */
    static ReplicationResult fifo(Simulation sim, int servers, double arrivalsPerMs, Distribution service,
            long warmup, long measured) {
        Measures m = new Measures(sim);
        RequestQueue q = new RequestQueue(sim, "queue").recordWaitingTimes(m.tally("wait_ms"));
        Machine machine = new Machine(sim, "server", servers, SchedulerFactory.processorSharing());
        m.add(machine.utilizationAs("cpu_utilization"));
        SampleSource demand = sim.sampler("service", service);
        Program server = Program.loop("server").get(q).cpu(demand).reply().build();
        for (int i = 0; i < servers; i++) {
            new SimThread(machine, "server-" + i, server).start();
        }
        ResponseRecorder rec = ResponseRecorder.of(m, "response_ms", "throughput_per_s");
        new OpenArrivals(sim, sim.sampler("arrivals", Distribution.exponential(1 / arrivalsPerMs)), q, rec,
                Long.MAX_VALUE).start();
        m.warmUpCompletions(warmup);
        m.stopAfterCompletions(measured, sim::stop);
        sim.run(Double.POSITIVE_INFINITY);
        return m.snapshot();
    }

    /**
     * M/M/1 processor sharing: every request gets its own thread (spawned at arrival by a
     * zero-cost acceptor) that uses an exponential CPU demand on a 1-CPU PS machine.
     */
    static ReplicationResult psThreadPerRequest(Simulation sim, SchedulerFactory scheduler, int cpus,
            double arrivalsPerMs, double meanDemand, long warmup, long measured) {
        Measures m = new Measures(sim);
        Machine machine = new Machine(sim, "server", cpus, scheduler);
        m.add(machine.utilizationAs("cpu_utilization"));
        SampleSource demand = sim.sampler("service", Distribution.exponential(meanDemand));
        Program worker = Program.once("worker").cpu(demand).reply().build();
        RequestQueue accept = new RequestQueue(sim, "accept");
        Program acceptor = Program.loop("acceptor").get(accept).spawn("worker", worker).build();
        new SimThread(machine, "acceptor", acceptor).start();
        ResponseRecorder rec = ResponseRecorder.of(m, "response_ms", "throughput_per_s");
        new OpenArrivals(sim, sim.sampler("arrivals", Distribution.exponential(1 / arrivalsPerMs)), accept, rec,
                Long.MAX_VALUE).start();
        m.warmUpCompletions(warmup);
        m.stopAfterCompletions(measured, sim::stop);
        sim.run(Double.POSITIVE_INFINITY);
        return m.snapshot();
    }

    /**
     * The machine-repairman model: N closed clients with exponential think time Z and one FIFO
     * server thread with exponential service S.
     */
    static ReplicationResult repairman(Simulation sim, int clients, double think, double service,
            long warmup, long measured) {
        Measures m = new Measures(sim);
        RequestQueue q = new RequestQueue(sim, "queue").recordWaitingTimes(m.tally("wait_ms"));
        Machine machine = new Machine(sim, "server", 1, SchedulerFactory.processorSharing());
        m.add(machine.utilizationAs("cpu_utilization"));
        Program server = Program.loop("server").get(q).cpu(sim.sampler("service", Distribution.exponential(service)))
                .reply().build();
        new SimThread(machine, "server", server).start();
        ResponseRecorder rec = ResponseRecorder.of(m, "response_ms", "throughput_per_s");
        new ClosedClients(sim, clients, sim.sampler("think", Distribution.exponential(think)), i -> q,
                Long.MAX_VALUE, rec).thinkFirst(true).start();
        m.warmUpCompletions(warmup);
        m.stopAfterCompletions(measured, sim::stop);
        sim.run(Double.POSITIVE_INFINITY);
        return m.snapshot();
    }
}
