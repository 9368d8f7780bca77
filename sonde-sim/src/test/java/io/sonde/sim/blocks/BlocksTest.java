package io.sonde.sim.blocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.cpu.Machine;
import io.sonde.sim.cpu.SchedulerFactory;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.stats.Tally;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deterministic scenarios for each building block (fixed demands, so times are exact). */
class BlocksTest {
    private final Simulation sim = new Simulation(1, 0);
    private final Machine machine = new Machine(sim, "m", 4, SchedulerFactory.processorSharing());
    private final List<String> log = new ArrayList<>();

    private static SampleSource ms(double v) {
        return SampleSource.constant(v);
    }

    private ThreadAction note(String what) {
        return (t, r) -> log.add(what + "@" + sim.now());
    }

    /** A sink that logs replies. */
    private RequestSink client(String name) {
        return r -> log.add(name + " reply " + r.id() + "@" + sim.now());
    }

    @Test
    void mutexHandsOverInFifoOrderAndRecordsContention() {
        Mutex mutex = new Mutex(sim, "orb");
        Tally contention = new Tally("contention");
        mutex.recordContention(contention);
        for (int i = 0; i < 3; i++) {
            String n = "t" + i;
            new SimThread(machine, n, Program.once(n).lock(mutex).cpu(ms(10)).action("done", note(n)).unlock(mutex)
                    .build()).start();
        }
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("t0@10.0", "t1@20.0", "t2@30.0");
        assertThat(contention.count()).isEqualTo(3);
        assertThat(contention.mean()).isCloseTo((0 + 10 + 20) / 3.0, within(1e-9));
        assertThat(mutex.contendedAcquisitions()).isEqualTo(2);
        assertThat(mutex.owner()).isNull();
    }

    @Test
    void continuationThreadsShareTheMutexWithProgramThreadsAndPayTheWakeCost() {
        Mutex mutex = new Mutex(sim, "orb").wakeCost(() -> 2.0);
        Tally contention = new Tally("contention");
        mutex.recordContention(contention);
        // A program thread takes the lock first (it starts at once), holds it for 10 ms.
        new SimThread(machine, "p", Program.once("p").lock(mutex).cpu(ms(10)).action("p done", note("p"))
                .unlock(mutex).build()).start();
        SimThread a = SimThread.driven(machine, "a", null);
        SimThread b = SimThread.driven(machine, "b", null);
        int[] stillWaiting = new int[2];
        sim.after(1, () -> {
            a.compute(1, () -> mutex.lock(a, () -> a.compute(5, () -> {
                log.add("a@" + sim.now() + " waiting=" + mutex.waiting());
                stillWaiting[0] = mutex.unlock(a);
            })));
            b.compute(2, () -> mutex.lock(b, () -> {
                log.add("b@" + sim.now());
                stillWaiting[1] = mutex.unlock(b);
                b.terminate();
            }));
        });
        sim.run(Double.POSITIVE_INFINITY);
        // a asks at 2, b at 3; p unlocks at 10; a pays 2 ms to wake, works 5: 17; b wakes 2 ms: 19.
        assertThat(log).containsExactly("p@10.0", "a@17.0 waiting=1", "b@19.0");
        assertThat(stillWaiting).containsExactly(0, 0); // b took over from a: nobody left waiting
        assertThat(contention.mean()).isCloseTo((0 + 8 + 14) / 3.0, within(1e-9));
        assertThat(a.isBlocked()).isTrue();
        assertThat(b.hasExited()).isTrue();
        assertThatThrownBy(() -> a.start()).hasMessageContaining("no program");
        a.wake(0, () -> { });
        assertThatThrownBy(() -> a.wake(0, () -> { })).hasMessageContaining("woken while not blocked");
    }

    @Test
    void semaphoreLimitsConcurrencyAndQueuesTheRestInOrder() {
        Semaphore connections = new Semaphore(sim, "connections", 2);
        Tally waits = new Tally("waits");
        connections.recordWaits(waits);
        for (int i = 0; i < 4; i++) {
            String n = "t" + i;
            new SimThread(machine, n, Program.once(n).acquire(connections).delay(ms(10)).action("done", note(n))
                    .release(connections).build()).start();
        }
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("t0@10.0", "t1@10.0", "t2@20.0", "t3@20.0");
        assertThat(waits.mean()).isCloseTo((0 + 0 + 10 + 10) / 4.0, within(1e-9));
        assertThat(connections.available()).isEqualTo(2);
    }

    @Test
    void unlockingAMutexHeldByAnotherThreadIsAnError() {
        Mutex mutex = new Mutex(sim, "poa");
        new SimThread(machine, "thief", Program.once("thief").unlock(mutex).build()).start();
        assertThatThrownBy(() -> sim.run(Double.POSITIVE_INFINITY))
                .hasMessageContaining("thread thief unlocks mutex poa held by nobody");
    }

    @Test
    void queueServesWaitingThreadsInOrderAndRecordsWaitingTimes() {
        RequestQueue q = new RequestQueue(sim, "pool");
        Tally waits = new Tally("wait");
        q.recordWaitingTimes(waits);
        Program worker = Program.loop("worker").get(q).cpu(ms(10)).reply().build();
        new SimThread(machine, "w", worker).start();
        RequestSink c = client("c");
        for (int i = 0; i < 3; i++) {
            sim.after(i, () -> q.accept(new Request(sim, c)));
        }
        sim.run(Double.POSITIVE_INFINITY);
        // Arrivals at 0, 1, 2; served 0-10, 10-20, 20-30.
        assertThat(log).containsExactly("c reply 0@10.0", "c reply 1@20.0", "c reply 2@30.0");
        assertThat(waits.mean()).isCloseTo((0 + 9 + 18) / 3.0, within(1e-9));
        assertThat(q.accepted()).isEqualTo(3);
        assertThat(q.waitingThreads()).isEqualTo(1);
    }

    @Test
    void forwardingCallHandsTheRequestOnAndTheCallerGoesOn() {
        RequestQueue in = new RequestQueue(sim, "in");
        RequestQueue pool = new RequestQueue(sim, "pool");
        new SimThread(machine, "receiver", Program.loop("receiver").get(in).cpu(ms(1)).forward(pool)
                .action("phase2", note("receiver phase 2 starts")).cpu(ms(2)).action("idle", note("receiver idle"))
                .build()).start();
        new SimThread(machine, "dispatcher", Program.loop("dispatcher").get(pool).cpu(ms(5)).reply().build()).start();
        sim.after(0, () -> in.accept(new Request(sim, client("c"))));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("receiver phase 2 starts@1.0", "receiver idle@3.0", "c reply 0@6.0");
    }

    @Test
    void nestedCallBlocksTheCallerUntilTheCalleeReplies() {
        RequestQueue in = new RequestQueue(sim, "in");
        RequestQueue db = new RequestQueue(sim, "db");
        new SimThread(machine, "server", Program.loop("server").get(in).cpu(ms(1)).call(db)
                .action("back", note("server back")).cpu(ms(1)).reply().build()).start();
        new SimThread(machine, "database", Program.loop("database").get(db).delay(ms(20)).reply()
                .action("after reply", note("database free")).build()).start();
        sim.after(0, () -> in.accept(new Request(sim, client("c"))));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("database free@21.0", "server back@21.0", "c reply 0@22.0");
    }

    @Test
    void spawnHandsOverTheRequestAndThreadsExitWithTheirCosts() {
        RequestQueue in = new RequestQueue(sim, "in");
        Program dispatcher = Program.once("dispatcher").action("start", note("dispatcher starts")).cpu(ms(5)).reply()
                .exit(ms(2)).build();
        new SimThread(machine, "receiver", Program.loop("receiver").get(in).cpu(ms(1))
                .spawn("dispatcher", dispatcher, ms(3)).action("spawned", note("spawned")).build()).start();
        sim.after(0, () -> in.accept(new Request(sim, client("c"))));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("spawned@4.0", "dispatcher starts@4.0", "c reply 0@9.0");
        // The dispatcher paid its exit cost and left the machine: only the receiver remains.
        assertThat(machine.threads()).extracting(t -> t.name()).containsExactly("receiver");
        assertThat(sim.now()).isEqualTo(11.0);
    }

    @Test
    void subProgramsRunInTheCallingThread() {
        Program sub = Program.once("sub").cpu(ms(2)).action("in sub", note("sub")).build();
        new SimThread(machine, "t", Program.once("main").run(sub).run(sub).action("end", note("end")).build()).start();
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("sub@2.0", "sub@4.0", "end@4.0");
    }

    @Test
    void stampsMeasureSpansOnRequestsAndThreads() {
        RequestQueue in = new RequestQueue(sim, "in");
        Tally first = new Tally("phase1");
        Tally holding = new Tally("holding");
        new SimThread(machine, "t", Program.loop("t").get(in).markThread(0).mark(1).cpu(ms(3)).record(first, 1)
                .reply().cpu(ms(2)).recordThread(holding, 0).build()).start();
        sim.after(0, () -> in.accept(new Request(sim, client("c"))));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(first.mean()).isEqualTo(3.0);
        assertThat(holding.mean()).isEqualTo(5.0);
    }

    @Test
    void networkLinkDelaysAndSerialisesOnItsBandwidth() {
        List<Double> arrivals = new ArrayList<>();
        NetworkLink link = new NetworkLink(sim, "lan", ms(1), 1000, r -> arrivals.add(sim.now()));
        // Two 5000-byte messages at 1000 bytes/ms: on the wire 0-5 and 5-10, then 1 ms latency.
        sim.after(0, () -> link.accept(new Request(sim, null).setSizeBytes(5000)));
        sim.after(0, () -> link.accept(new Request(sim, null).setSizeBytes(5000)));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(arrivals).containsExactly(6.0, 11.0);
    }

    @Test
    void byTypeAndBranchChooseSubPrograms() {
        Program a = Program.once("a").action("a", note("a")).build();
        Program b = Program.once("b").action("b", note("b")).build();
        RequestQueue in = new RequestQueue(sim, "in");
        new SimThread(machine, "t", Program.loop("t").get(in).byType(a, b).reply().build()).start();
        sim.after(0, () -> in.accept(new Request(sim, r -> { }).setType(1)));
        sim.after(1, () -> in.accept(new Request(sim, r -> { }).setType(0)));
        sim.run(Double.POSITIVE_INFINITY);
        assertThat(log).containsExactly("b@0.0", "a@1.0");

        Simulation s2 = new Simulation(3, 0);
        Machine m2 = new Machine(s2, "m", 1, SchedulerFactory.processorSharing());
        int[] counts = new int[2];
        Program x = Program.once("x").action("x", (t, r) -> counts[0]++).build();
        Program y = Program.once("y").action("y", (t, r) -> counts[1]++).build();
        new SimThread(m2, "t", Program.loop("t").branch(s2.stream("branch"), new double[] {0.25, 0.75}, x, y)
                .delay(ms(1)).build()).start();
        s2.run(10_000);
        assertThat(counts[0] / (double) (counts[0] + counts[1])).isCloseTo(0.25, within(0.02));
    }

    @Test
    void aLoopWithoutABlockingStepIsReportedNotHung() {
        new SimThread(machine, "spinner", Program.loop("spin").action("nothing", (t, r) -> { }).build()).start();
        assertThatThrownBy(() -> sim.run(Double.POSITIVE_INFINITY))
                .hasMessageContaining("thread spinner").hasMessageContaining("needs a blocking step");
    }

    @Test
    void replyingWithoutARequestOrADestinationIsAnError() {
        new SimThread(machine, "t", Program.once("t").reply().build()).start();
        assertThatThrownBy(() -> sim.run(Double.POSITIVE_INFINITY)).hasMessageContaining("without a current request");
        Simulation s2 = new Simulation(1, 0);
        Machine m2 = new Machine(s2, "m", 1, SchedulerFactory.processorSharing());
        RequestQueue q = new RequestQueue(s2, "q");
        new SimThread(m2, "t", Program.once("t").get(q).reply().build()).start();
        q.accept(new Request(s2, null));
        assertThatThrownBy(() -> s2.run(Double.POSITIVE_INFINITY)).hasMessageContaining("has nowhere to reply to");
    }
}
