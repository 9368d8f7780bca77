package io.sonde.sim.model;

import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.RandomStream;
import io.sonde.sim.random.Sampler;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.RateMeter;
import io.sonde.sim.stats.ReplicationResult;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.Set;

/**
 * One replication of a middleware model: the server machine, one receiver thread per connection,
 * the clients (closed, or open Poisson arrivals) and the measures. What a receiver does with a
 * request once it has it is the threading strategy: each {@link Strategy} is a subclass
 * ({@link ThreadPerClientServer}, {@link ThreadedServer}, and the {@link DispatchingServer}s
 * {@link ThreadPerRequestServer} and {@link ThreadPoolServer}).
 *
 * <p>Server threads are continuation-driven {@link SimThread}s, so that the model controls what
 * every wake-up costs.
 */
abstract class OrbServer {
    /** The measures only some strategies have (the others exist for all). */
    static final Set<String> STRATEGY_MEASURES = Set.of("dispatcher_queue_ms", "dispatcher_holding_ms",
            "dispatcher_phase1_ms", "mutex_contention_ms", "handover_ms");

    final Simulation sim;
    final MiddlewareConfig cfg;
    final MiddlewareParams p;
    final Machine machine;
    final Measures m;
    final Tally response;
    final Tally serverResponse;
    final Tally recvQueue;
    final Tally recvHold;
    final Tally recvPhase1;
    final Tally dispQueue;
    final Tally dispHold;
    final Tally dispPhase1;
    final Tally mutexWait;
    final Tally handover;
    final RateMeter throughput;
    final Receiver[] receivers;
    private final Sampler servant;
    private final int[] sentPerClient;
    private final RandomStream network;
    private int openSent;
    private Sampler interArrival;

    OrbServer(Simulation sim, MiddlewareConfig cfg) {
        this.sim = sim;
        this.cfg = cfg;
        this.p = MiddlewareParams.from(cfg.profile());
        this.machine = new Machine(sim, "server", cfg.cpus(), cfg.scheduler().factory(p.tickMs(), p.baseTicks()));
        this.m = new Measures(sim);
        response = m.tally("response_time_ms");
        recvQueue = m.tally("receiver_queue_ms");
        dispQueue = m.tally("dispatcher_queue_ms");
        recvHold = m.tally("receiver_holding_ms");
        dispHold = m.tally("dispatcher_holding_ms");
        recvPhase1 = m.tally("receiver_phase1_ms");
        dispPhase1 = m.tally("dispatcher_phase1_ms");
        mutexWait = m.tally("mutex_contention_ms");
        handover = m.tally("handover_ms");
        throughput = m.rate("throughput_per_s");
        m.add(machine.utilizationAs("cpu_utilization"));
        serverResponse = m.tally("server_response_ms");
        Distribution d = cfg.exponential() ? Distribution.exponential(cfg.servantMs())
                : Distribution.deterministic(cfg.servantMs());
        servant = sim.sampler("servant", d);
        network = sim.stream("network");
        int n = cfg.receivers();
        receivers = new Receiver[n];
        for (int i = 0; i < n; i++) {
            receivers[i] = newReceiver(SimThread.driven(machine, "receiver-" + i, null));
        }
        sentPerClient = new int[cfg.open() ? 0 : cfg.clients()];
        long total = cfg.open() ? cfg.openRequests() : (long) cfg.clients() * cfg.requestsPerClient();
        long warm = (long) Math.floor(total * p.warmupFraction());
        if (warm > 0 && warm < total) {
            m.warmUpCompletions(warm);
        }
    }

    /**
     * The receiver of one connection running on {@code w}. Called from the constructor: an
     * override must not use the subclass's own fields.
     */
    Receiver newReceiver(SimThread w) {
        return new Receiver(w);
    }

    /**
     * The strategy's part: receiver {@code rcv} has just started on request {@code r} (the queuing
     * before it is recorded); it must eventually send the reply ({@link #replySent}) and get ready
     * for the next request ({@link Receiver#phase2}).
     */
    abstract void receive(Receiver rcv, Req r);

    /** Runs the replication and returns its measures. */
    final ReplicationResult run() {
        if (cfg.open()) {
            interArrival = sim.sampler("arrivals", Distribution.exponential(1.0 / cfg.arrivalRatePerMs()));
            scheduleArrival();
        } else {
            RandomStream start = sim.stream("start");
            for (int c = 0; c < cfg.clients(); c++) {
                final int client = c;
                // Clients start spread over a millisecond so that they do not arrive in lock-step.
                sim.after(start.nextDouble(), () -> clientSend(client));
            }
        }
        sim.run(Double.POSITIVE_INFINITY);
        return m.snapshot();
    }

    // ------------------------------------------------------------------ workload

    private void scheduleArrival() {
        sim.after(interArrival.next(), () -> {
            int conn = openSent % cfg.connections();
            openSent++;
            Req r = new Req(conn, sim.now());
            sim.after(networkDelay(p.netRequest()), () -> receivers[conn].deliver(r));
            if (openSent < cfg.openRequests()) {
                scheduleArrival();
            }
        });
    }

    private void clientSend(int client) {
        sentPerClient[client]++;
        Req r = new Req(client, sim.now());
        sim.after(networkDelay(p.netRequest()), () -> receivers[client].deliver(r));
    }

    /**
     * One network delay of the given mean: constant, or exponential (the client machine and
     * both TCP stacks add variable delays; without them closed clients stay in lock-step with
     * the server threads).
     */
    private double networkDelay(double mean) {
        return p.networkExponential() && mean > 0 ? mean * -Math.log(1.0 - network.nextDouble()) : mean;
    }

    /** The server has sent the reply of {@code r}. */
    final void replySent(Req r) {
        double now = sim.now();
        response.add(now - r.sent);
        serverResponse.add(now - r.recvStart);
        throughput.increment();
        m.completed();
        if (!cfg.open()) {
            int c = r.connection;
            if (sentPerClient[c] < cfg.requestsPerClient() || now < cfg.minDurationMs()) {
                sim.after(networkDelay(p.netReply()) + p.clientThink(), () -> clientSend(c));
            } else {
                // The first client to finish ends the measurement: later requests would see
                // fewer competitors (the cool-down the thesis filtered out, section 4.4).
                sim.stop();
            }
        }
    }

    // ------------------------------------------------------------------ servant

    /** Runs the servant (b_ser on the CPU, or the b_sern delay) on {@code w}, then {@code then}. */
    final void servant(SimThread w, Runnable then) {
        double d = servant.next();
        if (!cfg.servantIsDelay()) {
            if (p.servantWallClock()) {
                burnUntil(w, sim.now() + d, then);
            } else {
                w.compute(d, then);
            }
            return;
        }
        if (d <= 0) {
            then.run();
            return;
        }
        // Linux 2.4 sleeps in whole timer ticks: the timeout is rounded up to ticks, plus the
        // extra tick(s) nanosleep adds, and expires on a tick boundary.
        double tick = p.tickMs();
        long ticks = (long) Math.ceil(d / tick - 1e-9) + p.sleepExtraTicks();
        double wakeAt = (Math.floor(sim.now() / tick) + ticks) * tick;
        w.block();
        sim.after(Math.max(0, wakeAt - sim.now()), () -> w.wake(wakeCost(p.timerWake()), then));
    }

    /**
     * CPU a wake-up costs: the base cost plus a part that grows with the number of threads
     * of the process (scheduler and LinuxThreads work that scans threads; thesis 4.5 reports
     * the CPU time per request growing from 1.8 ms with 2 clients to 2.3 ms with 64).
     */
    final double wakeCost(double base) {
        int threads = p.wakePerRunnableThread() ? machine.scheduler().runnable() + 1 : machine.threads().size();
        return base + p.wakePerThread() * Math.min(threads, p.wakePerThreadMaxThreads());
    }

    /**
     * CPU a wake-up through a Java monitor costs (hand-over inside the process): the base cost
     * only. The per-thread part is charged once per request, where the request enters the
     * process (socket) and where a sleep ends, so that strategies with more hand-overs per
     * request are not charged it several times (section 4.5 reports the same growth for
     * thread-per-client and thread-pool).
     */
    static double monitorWakeCost(double base) {
        return base;
    }

    /** A servant that spins until a wall-clock deadline (time preempted counts as served). */
    private void burnUntil(SimThread w, double deadline, Runnable then) {
        double left = deadline - sim.now();
        if (left <= 1e-9) {
            then.run();
            return;
        }
        w.compute(Math.min(left, 0.25), () -> burnUntil(w, deadline, then));
    }

    // ------------------------------------------------------------------ receivers

    /** One request's time stamps (ms). */
    static final class Req {
        final int connection;
        final double sent;
        double recvStart;
        double handedOn;

        Req(int connection, double sent) {
            this.connection = connection;
            this.sent = sent;
        }
    }

    /** The receiver thread of one connection and its socket. */
    class Receiver {
        final SimThread w;
        /**
         * Whether the receiver is working on a request (1st or 2nd phase): a dispatcher that
         * wants to write a reply on this connection waits until the receiver is done.
         */
        private boolean processing;
        private final ArrayDeque<SimThread> replyWriters = new ArrayDeque<>();
        private final ArrayDeque<Runnable> replyConts = new ArrayDeque<>();
        private final ArrayDeque<Req> socket = new ArrayDeque<>();
        private boolean waiting = true;

        Receiver(SimThread w) {
            this.w = w;
        }

        /** Runs {@code then} on {@code d} once the receiver is not processing a request. */
        final void whenIdle(SimThread d, Runnable then) {
            if (!processing || !p.replyWaitsForReceiver()) {
                then.run();
                return;
            }
            replyWriters.add(d);
            replyConts.add(then);
            d.block();
        }

        final void deliver(Req r) {
            if (waiting) {
                waiting = false;
                w.wake(wakeCost(p.socketWake()), () -> begin(r));
            } else {
                socket.add(r);
            }
        }

        private void nextRequest() {
            processing = false;
            while (!replyWriters.isEmpty()) {
                replyWriters.poll().wake(monitorWakeCost(p.monitorWake()), replyConts.poll());
            }
            Req r = socket.poll();
            if (r == null) {
                waiting = true;
                w.block();
            } else {
                begin(r);
            }
        }

        private void begin(Req r) {
            processing = true;
            r.recvStart = sim.now();
            recvQueue.add(r.recvStart - r.sent);
            receive(this, r);
        }

        /** Same-thread dispatching: marshal, reply, 2nd phase. */
        final void finishInline(Req r) {
            w.compute(p.bMar() + p.bReply(), () -> {
                recvPhase1.add(sim.now() - r.recvStart);
                replySent(r);
                phase2(r);
            });
        }

        /** The receiver's 2nd phase, then on to the next request. */
        final void phase2(Req r) {
            w.compute(p.receiverPhase2(), () -> {
                recvHold.add(sim.now() - r.recvStart);
                nextRequest();
            });
        }
    }
}
