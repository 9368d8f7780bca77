package io.sonde.bench.sim;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.RandomStream;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.Tally;
import io.sonde.sim.workload.OpenArrivals;

/** The benchmark's M/M/1 queue, written two ways on Sonde's simulator. */
final class Mm1Models {
    private Mm1Models() {}

    /** What one run produced. */
    record Run(String model, long customers, long events, double seconds, double meanWaitMs) {
        double eventsPerSecond() {
            return events / seconds;
        }

        double customersPerSecond() {
            return customers / seconds;
        }
    }

    /**
     * With the building blocks, as models use them: Poisson arrivals into a FIFO request queue,
     * one server thread (get, CPU demand, reply) on a one-CPU machine.
     */
    static Run blocks(long seed, long customers, double arrivalsPerMs, double serviceMeanMs) {
        Simulation sim = new Simulation(seed, 0);
        Measures m = new Measures(sim);
        Tally wait = m.tally("wait_ms");
        RequestQueue q = new RequestQueue(sim, "queue").recordWaitingTimes(wait);
        Machine machine = new Machine(sim, "server", 1, SchedulerFactory.processorSharing());
        Program server = Program.loop("server").get(q)
                .cpu(sim.sampler("service", Distribution.exponential(serviceMeanMs))).reply().build();
        new SimThread(machine, "server", server).start();
        new OpenArrivals(sim, sim.sampler("arrivals", Distribution.exponential(1 / arrivalsPerMs)), q,
                r -> { }, customers).start();
        long t0 = System.nanoTime();
        sim.run(Double.POSITIVE_INFINITY);
        long t1 = System.nanoTime();
        return new Run("blocks", customers, sim.eventCount(), (t1 - t0) / 1e9, wait.mean());
    }

    /**
     * Not an M/M/1: a thread-pool server as the middleware models build it, for the speed of a
     * realistic model — Poisson arrivals (100/s) at a receiver thread that forwards to a pool of
     * ten dispatcher threads, on one CPU under the Linux 2.4 scheduler (10 ms ticks), exponential
     * demands (0.9 ms receiver, 5.6 ms dispatcher).
     */
    static Run threadPool(long seed, long customers) {
        Simulation sim = new Simulation(seed, 0);
        Measures m = new Measures(sim);
        Tally wait = m.tally("pool_wait_ms");
        RequestQueue connection = new RequestQueue(sim, "connection");
        RequestQueue pool = new RequestQueue(sim, "pool").recordWaitingTimes(wait);
        Machine machine = new Machine(sim, "server", 1, SchedulerFactory.linux24());
        Program receiver = Program.loop("receiver").get(connection)
                .cpu(sim.sampler("b_rec", Distribution.exponential(0.8))).forward(pool)
                .cpu(sim.sampler("phase2", Distribution.exponential(0.1))).build();
        Program dispatcher = Program.loop("dispatcher").get(pool)
                .cpu(sim.sampler("b_ser", Distribution.exponential(5.6))).reply().build();
        new SimThread(machine, "receiver", receiver).start();
        for (int i = 0; i < 10; i++) {
            new SimThread(machine, "dispatcher-" + i, dispatcher).start();
        }
        new OpenArrivals(sim, sim.sampler("arrivals", Distribution.exponential(10)), connection, r -> { }, customers)
                .start();
        long t0 = System.nanoTime();
        sim.run(Double.POSITIVE_INFINITY);
        long t1 = System.nanoTime();
        return new Run("thread_pool", customers, sim.eventCount(), (t1 - t0) / 1e9, wait.mean());
    }

    /**
     * Directly on the event list: an arrival event and a departure event, the queue a ring buffer
     * of arrival times. This is the engine's own cost, without threads or schedulers.
     */
    static Run events(long seed, long customers, double arrivalsPerMs, double serviceMeanMs) {
        Simulation sim = new Simulation(seed, 0);
        RawMm1 model = new RawMm1(sim, customers, 1 / arrivalsPerMs, serviceMeanMs);
        model.start();
        long t0 = System.nanoTime();
        sim.run(Double.POSITIVE_INFINITY);
        long t1 = System.nanoTime();
        return new Run("events", customers, sim.eventCount(), (t1 - t0) / 1e9, model.wait.mean());
    }

    /** Minimal event-level M/M/1. */
    private static final class RawMm1 {
        final Simulation sim;
        final long customers;
        final double interArrivalMean;
        final double serviceMean;
        final RandomStream arrivals;
        final RandomStream services;
        final Tally wait = new Tally("wait_ms");
        double[] ring = new double[1024];
        int head;
        int size;
        boolean busy;
        long generated;
        final Event arrival = new Event() {
            @Override
            protected void fire() {
                arrive();
            }
        };
        final Event departure = new Event() {
            @Override
            protected void fire() {
                depart();
            }
        };

        RawMm1(Simulation sim, long customers, double interArrivalMean, double serviceMean) {
            this.sim = sim;
            this.customers = customers;
            this.interArrivalMean = interArrivalMean;
            this.serviceMean = serviceMean;
            this.arrivals = sim.stream("arrivals");
            this.services = sim.stream("service");
        }

        void start() {
            sim.schedule(arrival, arrivals.nextExponential(interArrivalMean));
        }

        void arrive() {
            if (++generated < customers) {
                sim.schedule(arrival, arrivals.nextExponential(interArrivalMean));
            }
            if (!busy) {
                busy = true;
                wait.add(0);
                sim.schedule(departure, services.nextExponential(serviceMean));
            } else {
                if (size == ring.length) {
                    double[] bigger = new double[ring.length * 2];
                    for (int i = 0; i < size; i++) {
                        bigger[i] = ring[(head + i) & (ring.length - 1)];
                    }
                    ring = bigger;
                    head = 0;
                }
                ring[(head + size++) & (ring.length - 1)] = sim.now();
            }
        }

        void depart() {
            if (size == 0) {
                busy = false;
                return;
            }
            double arrived = ring[head];
            head = (head + 1) & (ring.length - 1);
            size--;
            wait.add(sim.now() - arrived);
            sim.schedule(departure, services.nextExponential(serviceMean));
        }
    }
}
