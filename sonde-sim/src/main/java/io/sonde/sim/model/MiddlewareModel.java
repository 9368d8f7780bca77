package io.sonde.sim.model;

import io.sonde.sim.engine.Experiment;
import io.sonde.sim.stats.ExperimentResult;
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
 *
 * <p>One replication is an {@link OrbServer}; each strategy is a subclass of it
 * ({@link Strategy#server}).
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
        ExperimentResult r = new Experiment(cfg.seed(), cfg.replications()).run(sim -> cfg.strategy().server(sim, cfg).run());
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
        return !OrbServer.STRATEGY_MEASURES.contains(key) || s.measures().contains(key);
    }
}
