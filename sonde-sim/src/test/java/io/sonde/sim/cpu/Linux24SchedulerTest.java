package io.sonde.sim.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.blocks.Program;
import io.sonde.sim.blocks.RequestQueue;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.Tally;
import io.sonde.sim.workload.OpenArrivals;
import io.sonde.sim.workload.ResponseRecorder;
import org.junit.jupiter.api.Test;

class Linux24SchedulerTest {
    private static Linux24Scheduler scheduler(SchedulerHarness h) {
        return (Linux24Scheduler) h.machine.scheduler();
    }

    @Test
    void baseSliceFollowsTheKernelFormula() {
        Linux24Scheduler.Config c = Linux24Scheduler.Config.DEFAULT;
        assertThat(c.base(0)).isEqualTo(6);
        assertThat(c.base(19)).isEqualTo(1);
        assertThat(c.base(-20)).isEqualTo(11);
    }

    @Test
    void cpuBoundThreadsRunWholeSlicesAndThePreviousThreadWinsTiesAfterRecalculation() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("a", 200).start();
        h.cpuBound("b", 200).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // a 0-60 (6 ticks), b 60-120; both at 0 -> recalculated to 6 each, b (previous) keeps
        // the CPU 120-180; a 180-240; recalc, a keeps 240-300; b 300-360; recalc, b keeps and
        // finishes at 380; a runs its last 20 ms 380-400.
        assertThat(h.log).containsExactly("b@380", "a@400");
        assertThat(scheduler(h).recalculations()).isEqualTo(3);
    }

    @Test
    void blockedThreadsKeepHalfTheirSliceAtRecalculation() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("a", 1000).start();
        SimThread s = new SimThread(h.machine, "s", Program.once("s").delay(SampleSource.constant(5000)).build());
        s.start();
        h.sim.run(65);
        // a used its 6 ticks by 60; s never ran: counter 6 -> 6/2 + 6 = 9.
        assertThat(s.counter()).isEqualTo(9);
        h.sim.run(125);
        assertThat(s.counter()).isEqualTo(10); // 9/2 + 6
        h.sim.run(185);
        assertThat(s.counter()).isEqualTo(11); // 10/2 + 6
        h.sim.run(245);
        assertThat(s.counter()).isEqualTo(11); // the fixed point: 110 ms
    }

    @Test
    void wokenThreadWithHigherGoodnessPreemptsAtOnce() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("a", 1000).start();
        h.sleeper("s", 25, 5).start();
        h.sim.run(31);
        // At 25 a has had 2 ticks (counter 4, goodness 24); s wakes with counter 6 (goodness 26)
        // and preempts: its burst ends at 30, not after a's slice.
        assertThat(h.log).containsExactly("s@30");
    }

    @Test
    void wokenThreadWithEqualGoodnessWaitsForTheSliceToEnd() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("a", 1000).start();
        h.sleeper("s", 5, 5).start();
        h.sim.run(70);
        // At 5 no tick has happened yet: both have goodness 26, no preemption. a's counter
        // reaches 0 at 60; s runs 60-65.
        assertThat(h.log).containsExactly("s@65");
    }

    @Test
    void aThreadThatBlocksOftenIsFavouredOverACpuBoundOne() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("hog", 100_000).start();
        SimThread io = h.sleeper("io", 7, 1);
        io.start();
        h.sim.run(10_000);
        // Ticks only charge the thread running at the tick: io (1 ms bursts) is rarely charged,
        // so it keeps a high counter and preempts the hog at nearly every wake-up.
        long bursts = io.bursts();
        assertThat(bursts).isGreaterThan((long) (0.9 * 10_000 / 8));
        assertThat(io.counter()).isGreaterThanOrEqualTo(h.machine.threads().get(0).counter());
    }

    @Test
    void forkSplitsTheSliceBetweenParentAndChild() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        int[] counters = new int[2];
        Program child = Program.once("child").action("c", (t, r) -> counters[1] = t.counter()).build();
        Program parent = Program.once("parent").cpu(SampleSource.constant(1))
                .spawnWithoutRequest("child", child).action("p", (t, r) -> counters[0] = t.counter()).build();
        new SimThread(h.machine, "parent", parent).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // Parent had 6 ticks: child gets (6 + 1) / 2 = 3, parent keeps 6 / 2 = 3.
        assertThat(counters).containsExactly(3, 3);
    }

    @Test
    void twoCpusRunTwoCpuBoundThreadsInParallel() {
        SchedulerHarness h = new SchedulerHarness(2, SchedulerFactory.linux24());
        h.cpuBound("a", 100).start();
        h.cpuBound("b", 150).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        assertThat(h.log).containsExactly("a@100", "b@150");
    }

    @Test
    void ticksStopWhenTheMachineIsIdle() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        h.cpuBound("a", 15).start();
        h.sim.run(Double.POSITIVE_INFINITY);
        // Burst end at 15, ticks at 10 only (none pending once idle): start, burst, log, tick.
        assertThat(h.sim.pendingEvents()).isZero();
        assertThat(h.sim.now()).isEqualTo(20.0); // the tick at 20 found the CPU idle and stopped
    }

    /**
     * Thesis 4.7.2 / Table 5.1: a receiver (about 0.9 ms of CPU per request) forwards to a pool of
     * dispatchers (about 5.6 ms). With one dispatcher the receiver blocks more and has the higher
     * priority, so requests wait before the pool; with ten, each dispatcher runs rarely, keeps a
     * high counter, and preempts the receiver in its 2nd phase, so requests wait before the
     * receiver instead. Processor sharing shows no such crossing.
     */
    private static ExperimentResult threadPool(SchedulerFactory scheduler, int dispatchers) {
        return new Experiment(3, 2).run(sim -> {
            Measures m = new Measures(sim);
            Machine server = new Machine(sim, "server", 1, scheduler);
            RequestQueue conn = new RequestQueue(sim, "conn").recordWaitingTimes(m.tally("receiver_queue"));
            RequestQueue pool = new RequestQueue(sim, "pool").recordWaitingTimes(m.tally("pool_queue"));
            Tally holding = m.tally("receiver_holding");
            Program receiver = Program.loop("receiver").get(conn).markThread(0).cpu(SampleSource.constant(0.8))
                    .forward(pool).cpu(SampleSource.constant(0.125)).recordThread(holding, 0).build();
            Program dispatcher = Program.loop("dispatcher").get(pool).cpu(SampleSource.constant(5.5)).reply()
                    .cpu(SampleSource.constant(0.1)).build();
            new SimThread(server, "receiver", receiver).start();
            for (int i = 0; i < dispatchers; i++) {
                new SimThread(server, "dispatcher-" + i, dispatcher).start();
            }
            OpenArrivals.poisson(sim, "arrivals", 100, conn, new ResponseRecorder(m, null, null), Long.MAX_VALUE)
                    .start();
            m.warmUpCompletions(500);
            m.stopAfterCompletions(8_000, sim::stop);
            sim.run(Double.POSITIVE_INFINITY);
            return m.snapshot();
        });
    }

    @Test
    void manyDispatchersOutrankTheReceiverAsInTheThesis() {
        ExperimentResult one = threadPool(SchedulerFactory.linux24(), 1);
        ExperimentResult ten = threadPool(SchedulerFactory.linux24(), 10);
        double q1 = one.estimate("receiver_queue").mean();
        double q10 = ten.estimate("receiver_queue").mean();
        assertThat(q1).isLessThan(0.5);
        assertThat(q10).isGreaterThan(3.0);
        assertThat(one.estimate("pool_queue").mean()).isGreaterThan(3.0);
        assertThat(ten.estimate("pool_queue").mean()).isLessThan(0.5);
        assertThat(ten.estimate("receiver_holding").mean()).isGreaterThan(4 * one.estimate("receiver_holding").mean());

        ExperimentResult psTen = threadPool(SchedulerFactory.processorSharing(), 10);
        assertThat(psTen.estimate("receiver_queue").mean()).isLessThan(q10 / 2);
    }

    /** A thread driven by code: each burst end runs the next action. */
    private static final class Scripted extends CpuThread {
        Runnable next;

        Scripted(Machine m, String name) {
            super(m, name, 0, null);
        }

        void burst(double ms, Runnable then) {
            next = then;
            useCpu(ms);
        }

        @Override
        protected void onCpuDone() {
            Runnable r = next;
            next = null;
            r.run();
        }
    }

    @Test
    void aThreadWokenSynchronouslyInsideAnotherThreadsCallbackCanPreemptIt() {
        SchedulerHarness h = new SchedulerHarness(1, SchedulerFactory.linux24());
        Scripted a = new Scripted(h.machine, "a");
        Scripted b = new Scripted(h.machine, "b");
        h.sim.after(0, () -> a.burst(35, () -> {
            // At 35 a has been charged 3 ticks (goodness 23); b (goodness 26) wakes and preempts
            // a, which then asks for 10 ms more from inside its own callback and must queue.
            b.burst(5, () -> h.log.add("b@" + SchedulerHarness.fmt(h.sim.now())));
            a.burst(10, () -> h.log.add("a@" + SchedulerHarness.fmt(h.sim.now())));
        }));
        h.sim.run(Double.POSITIVE_INFINITY);
        assertThat(h.log).containsExactly("b@40", "a@50");
        assertThat(h.machine.contextSwitches()).isEqualTo(2);
    }
}
