package io.sonde.sim.model;

import io.sonde.sim.blocks.Mutex;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.cpu.Machine;
import io.sonde.sim.engine.Experiment;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.RandomStream;
import io.sonde.sim.random.Sampler;
import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.RateMeter;
import io.sonde.sim.stats.ReplicationResult;
import io.sonde.sim.stats.Tally;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;

/**
 * The performance models of the four CORBA threading strategies of the thesis (chapter 4.3),
 * simulated on Sonde's engine: a server machine whose CPUs are shared by receiver and dispatcher
 * threads under a pluggable scheduler, clients on another machine connected by a network delay.
 *
 * <p>Per request the model records the thesis' measures (section 5.3.1): queuing before the
 * receiver (from the moment the client sends the request until the receiver thread starts on it,
 * so it includes the network and the socket buffer), the receiver's 1st phase (until the request
 * is handed on) and holding time (until the receiver is ready for the next request), the queuing
 * before the dispatcher pool, the dispatcher's 1st phase (until the reply is sent) and holding
 * time, ORB-mutex contention (threaded), the handover time (thread-per-request: from the request
 * to create a dispatcher until the dispatcher starts on the request), and the server response
 * time (from the client sending the request until the server has sent the reply).
 */
public final class MiddlewareModel {

    /** Measure keys in output order; the first twelve are the documented JSON keys. */
    public static final List<String> KEYS = List.of(
            "response_time_ms", "receiver_queue_ms", "dispatcher_queue_ms", "receiver_holding_ms",
            "dispatcher_holding_ms", "receiver_phase1_ms", "dispatcher_phase1_ms", "mutex_contention_ms",
            "handover_ms", "throughput_per_s", "cpu_utilization", "events_per_s", "server_response_ms");

    private MiddlewareModel() {}

    /** Runs the configured replications and returns every measure with its 95 % interval. */
    public static SimulationResult run(MiddlewareConfig cfg) {
        MiddlewareParams.from(cfg.profile()); // a bad profile value fails here, not in every replica
        ExperimentResult r = new Experiment(cfg.seed(), cfg.replications()).run(sim -> new Replica(sim, cfg).run());
        SimulationResult out = new SimulationResult();
        out.info("model", "middleware")
                .info("strategy", cfg.strategy().cliName())
                .info("workload", cfg.open()
                        ? String.format(Locale.ROOT, "poisson %.6g/s over %d connection(s), %d requests",
                                cfg.arrivalRatePerMs() * 1000, cfg.connections(), cfg.openRequests())
                        : cfg.clients() + " closed client(s) x " + cfg.requestsPerClient() + " requests")
                .info("scheduler", cfg.scheduler().spelling())
                .info("profile", cfg.profile().name())
                .info("servant_clock", cfg.profile().text(MiddlewareParams.SERVANT_CPU_CLOCK, "?"))
                .info("seed", Long.toString(cfg.seed()))
                .info("replications", Integer.toString(cfg.replications()));
        for (String key : KEYS) {
            if (key.equals("events_per_s")) {
                out.put(key, new SimulationResult.Estimate(r.eventsPerSecond(), Double.NaN));
            } else if (!applies(cfg.strategy(), key)) {
                out.put(key, null);
            } else {
                io.sonde.sim.stats.Estimate e = r.estimate(key);
                out.put(key, Double.isNaN(e.mean()) ? null : new SimulationResult.Estimate(e.mean(), e.ci95()));
            }
        }
        return out;
    }

    /** Whether measure {@code key} exists for {@code s}. */
    static boolean applies(Strategy s, String key) {
        return switch (key) {
            case "dispatcher_queue_ms" -> s == Strategy.THREAD_POOL;
            case "dispatcher_holding_ms", "dispatcher_phase1_ms" ->
                    s == Strategy.THREAD_POOL || s == Strategy.THREAD_PER_REQUEST;
            case "mutex_contention_ms" -> s == Strategy.THREADED;
            case "handover_ms" -> s == Strategy.THREAD_PER_REQUEST;
            default -> true;
        };
    }

    /** One request's time stamps (ms). */
    private static final class Req {
        final int connection;
        final double sent;
        double recvStart;
        double handedOn;

        Req(int connection, double sent) {
            this.connection = connection;
            this.sent = sent;
        }
    }

    /** One replication: builds the model on {@code sim}, runs it, returns the measures. */
    private static final class Replica {
        private final Simulation sim;
        private final MiddlewareConfig cfg;
        private final MiddlewareParams p;
        private final Machine machine;
        private final Measures m;
        private final Tally response;
        private final Tally serverResponse;
        private final Tally recvQueue;
        private final Tally recvHold;
        private final Tally recvPhase1;
        private final Tally dispQueue;
        private final Tally dispHold;
        private final Tally dispPhase1;
        private final Tally mutexWait;
        private final Tally handover;
        private final RateMeter throughput;
        private final Sampler servant;
        private final Receiver[] receivers;
        private final int[] sentPerClient;
        // thread pool
        private final ArrayDeque<SimThread> idleDispatchers = new ArrayDeque<>();
        private final ArrayDeque<Req> poolQueue = new ArrayDeque<>();
        private boolean poolMonitorHeld;
        private final ArrayDeque<SimThread> monitorWaiters = new ArrayDeque<>();
        private final ArrayDeque<Req> monitorWaiterRequests = new ArrayDeque<>();
        // threaded
        private final Mutex orbMutex;
        private int openSent;
        private Sampler interArrival;
        private final RandomStream network;

        Replica(Simulation sim, MiddlewareConfig cfg) {
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
            orbMutex = new Mutex(sim, "orb").wakeCost(() -> monitorWakeCost(p.monitorWake())).recordContention(mutexWait);
            network = sim.stream("network");
            int n = cfg.receivers();
            receivers = new Receiver[n];
            for (int i = 0; i < n; i++) {
                receivers[i] = new Receiver(SimThread.driven(machine, "receiver-" + i, null));
            }
            if (cfg.strategy() == Strategy.THREAD_POOL) {
                for (int i = 0; i < cfg.poolSize(); i++) {
                    idleDispatchers.add(SimThread.driven(machine, "dispatcher-" + i, null));
                }
            }
            sentPerClient = new int[cfg.open() ? 0 : cfg.clients()];
            long total = cfg.open() ? cfg.openRequests() : (long) cfg.clients() * cfg.requestsPerClient();
            long warm = (long) Math.floor(total * p.warmupFraction());
            if (warm > 0 && warm < total) {
                m.warmUpCompletions(warm);
            }
        }

        ReplicationResult run() {
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
        private void replySent(Req r) {
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
        private void servant(SimThread w, Runnable then) {
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
        private double wakeCost(double base) {
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
        private double monitorWakeCost(double base) {
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

        // ------------------------------------------------------------------ ORB mutex (threaded)

        private void orbUnlock(SimThread w, Runnable then) {
            int stillWaiting = orbMutex.unlock(w);
            // Releasing a contended Java monitor wakes the waiters, which find it taken again: the
            // CPU this costs grows with the number of waiters (thesis 4.5: 1.8 ms per request with 2
            // clients, 5.4 ms with 64).
            w.compute(stillWaiting * p.orbMutexWaiter(), then);
        }

        // ------------------------------------------------------------------ receivers

        private final class Receiver {
            final SimThread w;
            /**
             * Whether the receiver is working on a request (1st or 2nd phase): a dispatcher that
             * wants to write a reply on this connection waits until the receiver is done.
             */
            boolean processing;
            final ArrayDeque<SimThread> replyWriters = new ArrayDeque<>();
            final ArrayDeque<Runnable> replyConts = new ArrayDeque<>();

            /** Runs {@code then} on {@code d} once the receiver is not processing a request. */
            void whenIdle(SimThread d, Runnable then) {
                if (!processing || !p.replyWaitsForReceiver()) {
                    then.run();
                    return;
                }
                replyWriters.add(d);
                replyConts.add(then);
                d.block();
            }
            final ArrayDeque<Req> socket = new ArrayDeque<>();
            boolean waiting = true;
            // thread-per-request hand-shake with the new dispatcher
            boolean childReady;
            boolean waitingForChild;
            SimThread child;
            Req childRequest;

            Receiver(SimThread w) {
                this.w = w;
            }

            void deliver(Req r) {
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
                switch (cfg.strategy()) {
                    case THREAD_PER_CLIENT -> w.compute(p.bRec() + p.bDisp() + p.bUnm(), () -> servant(w, () -> finishInline(r)));
                    case THREADED -> w.compute(p.bRec(), () -> orbMutex.lock(w, () -> w.compute(p.bDisp() + p.bUnm(),
                            () -> servant(w, () -> orbUnlock(w, () -> finishInline(r))))));
                    case THREAD_POOL -> w.compute(p.bRec() + p.bEnqueue(), () -> enqueue(r));
                    case THREAD_PER_REQUEST -> w.compute(p.bRec(), () -> createDispatcher(r));
                }
            }

            /** Same-thread dispatching: marshal, reply, 2nd phase. */
            private void finishInline(Req r) {
                w.compute(p.bMar() + p.bReply(), () -> {
                    recvPhase1.add(sim.now() - r.recvStart);
                    replySent(r);
                    phase2(r);
                });
            }

            private void phase2(Req r) {
                w.compute(p.receiverPhase2(), () -> {
                    recvHold.add(sim.now() - r.recvStart);
                    nextRequest();
                });
            }

            // --- thread pool: put the request in the pool queue under its monitor
            private void enqueue(Req r) {
                r.handedOn = sim.now();
                poolMonitorHeld = true;
                SimThread d = idleDispatchers.poll();
                if (d != null) {
                    final SimThread disp = d;
                    disp.wake(monitorWakeCost(p.monitorWake()), () -> dispatcherWoken(disp, r));
                } else {
                    poolQueue.add(r);
                }
                // The notify returns; if the woken dispatcher has a higher goodness it has run
                // meanwhile (and found the monitor still held).
                w.compute(SimThread.MIN_BURST, () -> {
                    recvPhase1.add(sim.now() - r.recvStart);
                    poolMonitorHeld = false;
                    while (!monitorWaiters.isEmpty()) {
                        SimThread mw = monitorWaiters.poll();
                        Req mr = monitorWaiterRequests.poll();
                        mw.wake(monitorWakeCost(p.monitorReacquire()), () -> startDispatch(mw, mr));
                    }
                    phase2(r);
                });
            }

            // --- thread per request: create a dispatcher thread, wait until it is set up, start it
            private void createDispatcher(Req r) {
                r.handedOn = sim.now();
                w.compute(p.bTcParent(), () -> {
                    SimThread d = SimThread.driven(machine, "dispatcher", w);
                    child = d;
                    childRequest = r;
                    childReady = false;
                    d.compute(p.bTcChild(), () -> {
                        // set-up done: tell the creator and suspend until started
                        childReady = true;
                        d.block();
                        if (waitingForChild) {
                            waitingForChild = false;
                            w.wake(monitorWakeCost(p.monitorWake()), this::startChild);
                        }
                    });
                    if (childReady) {
                        startChild();
                    } else {
                        waitingForChild = true;
                        w.block();
                    }
                });
            }

            private void startChild() {
                SimThread d = child;
                Req r = childRequest;
                child = null;
                childRequest = null;
                w.compute(p.bThreadStart(), () -> {
                    d.wake(monitorWakeCost(p.monitorWake()), () -> {
                        handover.add(sim.now() - r.handedOn);
                        startDispatch(d, r);
                    });
                    recvPhase1.add(sim.now() - r.recvStart);
                    phase2(r);
                });
            }
        }

        // ------------------------------------------------------------------ dispatchers

        private void dispatcherWoken(SimThread d, Req r) {
            if (!poolMonitorHeld) {
                startDispatch(d, r);
                return;
            }
            // Woken by notify() while the receiver still holds the queue monitor: the wait() must
            // re-acquire it, fails, and blocks until the receiver leaves the monitor.
            d.compute(p.monitorRetry(), () -> {
                if (!poolMonitorHeld) {
                    startDispatch(d, r);
                } else {
                    monitorWaiters.add(d);
                    monitorWaiterRequests.add(r);
                    d.block();
                }
            });
        }

        private void startDispatch(SimThread d, Req r) {
            double start = sim.now();
            if (cfg.strategy() == Strategy.THREAD_POOL) {
                dispQueue.add(start - r.handedOn);
            }
            // The pool dispatcher's extra work is sending the reply on a connection owned by a
            // receiver thread; it needs the connection's monitor (held by the receiver while busy).
            double replyCost = p.bReply() + (cfg.strategy() == Strategy.THREAD_POOL ? p.bPoolReply() : 0);
            Receiver conn = receivers[r.connection];
            d.compute(p.bDisp() + p.bUnm(), () -> servant(d, () -> d.compute(p.bMar(), () -> conn.whenIdle(d, () -> d.compute(replyCost, () -> {
                dispPhase1.add(sim.now() - start);
                replySent(r);
                if (cfg.strategy() == Strategy.THREAD_PER_REQUEST) {
                    d.compute(p.bTk(), () -> {
                        dispHold.add(sim.now() - start);
                        d.terminate();
                    });
                } else {
                    d.compute(p.dispatcherPhase2(), () -> {
                        dispHold.add(sim.now() - start);
                        Req next = poolQueue.poll();
                        if (next != null) {
                            startDispatch(d, next);
                        } else {
                            idleDispatchers.add(d);
                            d.block();
                        }
                    });
                }
            })))));
        }
    }
}
