package io.sonde.lab.model;

import io.sonde.lab.server.ServerStrategy;
import io.sonde.sim.cpu.SchedulerKind;
import io.sonde.sim.model.MiddlewareConfig;
import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.model.Strategy;
import io.sonde.sim.profile.CalibrationProfile;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * sonde-sim's middleware model of the lab server, parameterised by demands from a trace:
 * every CPU demand is a stage of the server measured by the agent, and only three numbers come
 * from outside the server's trace, all measured at low load:
 * <ul>
 *   <li>{@code networkMs}: the round trip outside the server's stages (loopback TCP, the
 *       client's send and receive, waking the threads), fitted so that the model's one-client
 *       response time equals the measured one ({@link #calibrateNetwork}); half goes to each
 *       direction;
 *   <li>{@code extraCpuMs}: CPU per request that no stage shows (the JVM's other threads, the
 *       kernel outside the stages, the load generator's own CPU on the same processors), charged
 *       after the reply as the receiver's 2nd phase, where it takes processor time without
 *       delaying that request's reply;
 *   <li>{@code cpuSlowdown}: how much longer than its CPU time the servant took at one client
 *       (servant wall over CPU time in the trace, at least 1): the share of a processor the
 *       server's threads got while other processes used the machine. Every CPU demand is
 *       stretched by it, which is all a model without those other processes can do.
 * </ul>
 * The thesis platform's effects (Linux 2.4 time slices, per-thread wake-up costs, monitor retries)
 * are off: this machine runs a current kernel, modelled as processor sharing on its processors.
 *
 * @param strategy the server's strategy
 * @param poolSize pool size (thread-pool)
 * @param demands the stages' demands
 * @param servantDelay whether the servant sleeps (its wall time is the delay) or spends CPU
 * @param exponential exponentially distributed servant demands (otherwise constant)
 * @param networkMs round trip outside the server, ms
 * @param extraCpuMs CPU per request outside the stages, ms
 * @param cpus processors of the machine
 * @param cpuSlowdown factor (at least 1) on every CPU demand for the machine's background load
 */
public record LabModel(ServerStrategy strategy, int poolSize, StageDemands demands, boolean servantDelay, boolean exponential,
        double networkMs, double extraCpuMs, int cpus, double cpuSlowdown) {

    /** Validates the numbers. */
    public LabModel {
        if (!(networkMs >= 0) || !(extraCpuMs >= 0) || Double.isInfinite(networkMs) || Double.isInfinite(extraCpuMs)) {
            throw new IllegalArgumentException("network and extra CPU must be finite and >= 0, got " + networkMs + ", " + extraCpuMs);
        }
        if (!(cpuSlowdown >= 1) || Double.isInfinite(cpuSlowdown)) {
            throw new IllegalArgumentException("CPU slowdown must be a finite factor >= 1, got " + cpuSlowdown);
        }
        if (cpus < 1) {
            throw new IllegalArgumentException("--cpus must be >= 1, got " + cpus);
        }
        if (strategy == ServerStrategy.THREAD_POOL && poolSize < 1) {
            throw new IllegalArgumentException("--pool must be >= 1 for thread-pool, got " + poolSize);
        }
    }

    /** One predicted point: response time as the client sees it, throughput, CPU use. */
    public record Prediction(int clients, double responseMs, double throughputPerSecond, double cpuUtilization) {}

    /** The mean servant demand the model runs: CPU time (stretched), or the sleep's wall time. */
    public double servantMs() {
        return servantDelay ? demands.servantWallMs() : demands.servantCpuMs() * cpuSlowdown;
    }

    /** The model's parameters (profile keys, ms), for reports. */
    public Map<String, Double> parameters() {
        Map<String, Double> m = new LinkedHashMap<>();
        double k = cpuSlowdown;
        m.put("b_rec_ms", k * demands.receiveCpuMs());
        m.put("b_disp_ms", k * (demands.dispatchCpuMs() + (strategy == ServerStrategy.THREADED ? demands.lockCpuMs() : 0)));
        m.put("b_reply_ms", k * demands.replyCpuMs());
        m.put("b_enqueue_ms", strategy == ServerStrategy.THREAD_POOL ? k * demands.enqueueCpuMs() : 0);
        m.put("b_tc_parent_ms", strategy == ServerStrategy.THREAD_PER_REQUEST ? k * demands.threadStartCpuMs() : 0);
        m.put("receiver_phase2_ms", k * extraCpuMs);
        m.put("network_request_ms", networkMs / 2);
        m.put("network_reply_ms", networkMs / 2);
        m.put(servantDelay ? "servant_delay_ms" : "servant_cpu_ms", servantMs());
        m.put("cpu_slowdown", cpuSlowdown);
        return m;
    }

    /** The calibration profile: the thesis profile's keys, every value replaced for this machine. */
    public CalibrationProfile profile() {
        CalibrationProfile p = CalibrationProfile.defaultProfile();
        for (Map.Entry<String, Double> e : parameters().entrySet()) {
            if (e.getKey().startsWith("b_") || e.getKey().startsWith("network_") || e.getKey().startsWith("receiver_")) {
                p = p.with(e.getKey(), e.getValue());
            }
        }
        for (String zero : new String[] {"b_unm_ms", "b_mar_ms", "b_pool_reply_ms", "dispatcher_phase2_ms", "b_tc_child_ms",
                "b_thread_start_ms", "b_tk_ms", "orb_mutex_waiter_ms", "socket_wakeup_ms", "monitor_wakeup_ms",
                "timer_wakeup_ms", "monitor_retry_ms", "monitor_reacquire_ms", "wakeup_per_thread_ms", "client_think_ms",
                "sleep_extra_ticks"}) {
            p = p.with(zero, 0.0);
        }
        // A current kernel's sleeps end when due (high-resolution timers): a 1 us "tick".
        return p.with("linux24.tick_ms", 0.001).with("servant_cpu_clock", "cpu").with("cpus", (double) cpus)
                .with("scheduler", "ps");
    }

    /** Predicts {@code clients} closed clients without think time (seeded, {@code replications} runs). */
    public Prediction predict(int clients, long seed, int replications) {
        int perClient = Math.max(60, 6_000 / clients);
        MiddlewareConfig cfg = new MiddlewareConfig(Strategy.parse(strategy.spelling()), clients, Math.max(1, poolSize),
                servantMs(), servantDelay, exponential, perClient, 0, 0, 0, cpus, SchedulerKind.PROCESSOR_SHARING,
                profile(), seed, replications);
        SimulationResult r = MiddlewareModel.run(cfg);
        // the model's response time ends when the server has sent the reply; the client sees it
        // one network delay later
        return new Prediction(clients, r.mean("response_time_ms") + networkMs / 2, r.mean("throughput_per_s"),
                r.mean("cpu_utilization"));
    }

    /** A copy with another network round trip. */
    public LabModel withNetwork(double ms) {
        return new LabModel(strategy, poolSize, demands, servantDelay, exponential, ms, extraCpuMs, cpus, cpuSlowdown);
    }

    /**
     * Fits {@code networkMs} so that the model's one-client response time equals
     * {@code measuredOneClientMs} (0 when the model without network already takes as long). Not
     * simply the difference: CPU the receiver spends after the reply (its 2nd phase) delays the
     * client's next request only by what the network round trip has not already covered, so the
     * response time is flat in the network up to that phase and grows one for one beyond it. The
     * response time does not fall as the network grows, so bisection on [0, measured] finds it.
     */
    public LabModel calibrateNetwork(double measuredOneClientMs, long seed, int replications) {
        if (withNetwork(0).predict(1, seed, replications).responseMs() >= measuredOneClientMs) {
            return withNetwork(0);
        }
        double lo = 0;
        double hi = measuredOneClientMs;
        for (int i = 0; i < 30 && hi - lo > 0.001; i++) {
            double mid = (lo + hi) / 2;
            if (withNetwork(mid).predict(1, seed, replications).responseMs() < measuredOneClientMs) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return withNetwork((lo + hi) / 2);
    }
}
