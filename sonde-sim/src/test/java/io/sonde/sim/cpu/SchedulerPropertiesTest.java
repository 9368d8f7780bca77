package io.sonde.sim.cpu;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Properties every scheduler must have on one CPU, whatever the workload: it is work-conserving
 * (the CPU never idles while work waits), so all work ends exactly when a FIFO single server
 * would end it; every thread receives exactly the CPU time it asked for; and the busy time
 * equals the total demand.
 */
class SchedulerPropertiesTest {
    private static final SchedulerFactory[] SCHEDULERS = {
        SchedulerFactory.processorSharing(), SchedulerFactory.roundRobin(3), SchedulerFactory.linux24()
    };

    /** Threads i = 0..n-1 start at start[i] and compute demand[i]; returns the makespan per scheduler. */
    private static boolean workConserving(int threads, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] start = new double[threads];
        double[] demand = new double[threads];
        for (int i = 0; i < threads; i++) {
            start[i] = r.nextInt(200); // integer ms: the expected end is exact
            demand[i] = 1 + r.nextInt(40);
        }
        // A work-conserving single server ends when the FIFO recursion over start times ends.
        Integer[] order = new Integer[threads];
        for (int i = 0; i < threads; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(start[a], start[b]));
        double end = 0;
        double total = 0;
        for (int i : order) {
            end = Math.max(end, start[i]) + demand[i];
            total += demand[i];
        }
        for (SchedulerFactory f : SCHEDULERS) {
            Simulation sim = new Simulation(seed, 0);
            Machine m = new Machine(sim, "m", 1, f);
            double[] finished = {0};
            SimThread[] ts = new SimThread[threads];
            for (int i = 0; i < threads; i++) {
                Program p = Program.once("t" + i).delay(SampleSource.constant(start[i]))
                        .cpu(SampleSource.constant(demand[i]))
                        .action("end", (t, q) -> finished[0] = Math.max(finished[0], sim.now())).build();
                ts[i] = new SimThread(m, "t" + i, p);
                ts[i].start();
            }
            sim.run(Double.POSITIVE_INFINITY);
            if (Math.abs(finished[0] - end) > 1e-6) {
                throw new AssertionError(m + ": all work ended at " + finished[0] + ", a work-conserving CPU ends at " + end);
            }
            for (int i = 0; i < threads; i++) {
                if (Math.abs(ts[i].cpuTime() - demand[i]) > 1e-9 || !ts[i].isFinished()) {
                    throw new AssertionError(m + ": thread " + i + " got " + ts[i].cpuTime() + " of " + demand[i]);
                }
            }
            double busy = m.utilization().value() * sim.now();
            if (Math.abs(busy - total) > 1e-6) {
                throw new AssertionError(m + ": busy " + busy + " ms for " + total + " ms of demand");
            }
        }
        return true;
    }

    @Test
    void everySchedulerIsWorkConservingAndGivesEachThreadItsDemand() {
        qt().withExamples(150).forAll(integers().between(1, 12), longs().all()).check(SchedulerPropertiesTest::workConserving);
    }

    /** On several CPUs: every thread finishes, the CPUs were busy exactly for the total demand. */
    private static boolean multiCpuAccounting(int cpus, int threads, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double total = 0;
        double[] start = new double[threads];
        double[] demand = new double[threads];
        for (int i = 0; i < threads; i++) {
            start[i] = r.nextInt(100);
            demand[i] = 1 + r.nextInt(60);
            total += demand[i];
        }
        for (SchedulerFactory f : SCHEDULERS) {
            Simulation sim = new Simulation(seed, 0);
            Machine m = new Machine(sim, "m", cpus, f);
            SimThread[] ts = new SimThread[threads];
            for (int i = 0; i < threads; i++) {
                ts[i] = new SimThread(m, "t" + i, Program.once("t" + i).delay(SampleSource.constant(start[i]))
                        .cpu(SampleSource.constant(demand[i] / 2)).delay(SampleSource.constant(3))
                        .cpu(SampleSource.constant(demand[i] / 2)).build());
                ts[i].start();
            }
            sim.run(Double.POSITIVE_INFINITY);
            for (SimThread t : ts) {
                if (!t.isFinished()) {
                    throw new AssertionError(m + ": " + t + " did not finish");
                }
            }
            double busy = m.utilization().value() * cpus * sim.now();
            if (Math.abs(busy - total) > 1e-6 * Math.max(1, total)) {
                throw new AssertionError(m + ": busy " + busy + " ms for " + total + " ms of demand");
            }
            if (m.scheduler().runnable() != 0 || m.busyCpus() != 0) {
                throw new AssertionError(m + ": still busy after the end");
            }
        }
        return true;
    }

    @Test
    void onSeveralCpusEveryThreadFinishesAndBusyTimeEqualsDemand() {
        qt().withExamples(100).forAll(integers().between(2, 4), integers().between(1, 14), longs().all())
                .check(SchedulerPropertiesTest::multiCpuAccounting);
    }
}
