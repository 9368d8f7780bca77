package io.sonde.sim.model;

import io.sonde.sim.cpu.SchedulerKind;
import io.sonde.sim.profile.CalibrationProfile;
import java.util.Objects;

/**
 * What to simulate with {@link MiddlewareModel}: a threading strategy, the workload (closed clients
 * or open Poisson arrivals over a number of connections), the servant demand and the platform.
 *
 * @param strategy the threading strategy
 * @param clients closed clients (each its own connection, at most one outstanding request); 0 when
 *     the workload is open
 * @param poolSize dispatcher threads of the thread pool (thread-pool only)
 * @param servantMs mean servant demand in ms (CPU time or, when {@code servantIsDelay}, a sleep)
 * @param servantIsDelay whether the servant sleeps (b_sern) instead of using the CPU (b_ser)
 * @param exponential exponential servant demand; otherwise deterministic
 * @param requestsPerClient requests each closed client sends
 * @param arrivalRatePerMs open Poisson arrival rate in requests per ms (0 when closed)
 * @param openRequests total requests of the open workload
 * @param connections connections the open workload is spread over (round robin)
 * @param cpus processors of the server machine
 * @param scheduler the server's CPU scheduler (round robin and Linux 2.4 use the profile's tick)
 * @param profile calibration parameters
 * @param seed experiment seed
 * @param replications independent replications
 * @param minDurationMs closed clients keep sending (beyond {@code requestsPerClient}) until this
 *     much simulated time has passed, as the thesis' experiments ran at least 45 s (0: no minimum)
 */
public record MiddlewareConfig(
        Strategy strategy,
        int clients,
        int poolSize,
        double servantMs,
        boolean servantIsDelay,
        boolean exponential,
        int requestsPerClient,
        double arrivalRatePerMs,
        int openRequests,
        int connections,
        int cpus,
        SchedulerKind scheduler,
        CalibrationProfile profile,
        long seed,
        int replications,
        double minDurationMs) {

    /** A configuration without a minimum duration. */
    public MiddlewareConfig(Strategy strategy, int clients, int poolSize, double servantMs, boolean servantIsDelay,
            boolean exponential, int requestsPerClient, double arrivalRatePerMs, int openRequests, int connections,
            int cpus, SchedulerKind scheduler, CalibrationProfile profile, long seed, int replications) {
        this(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient, arrivalRatePerMs,
                openRequests, connections, cpus, scheduler, profile, seed, replications, 0);
    }

    /**
     * A configuration whose scheduler is spelled as on the command line ({@code ps}, {@code rr},
     * {@code linux24}); an unknown name is an error naming {@code --scheduler}.
     */
    public MiddlewareConfig(Strategy strategy, int clients, int poolSize, double servantMs, boolean servantIsDelay,
            boolean exponential, int requestsPerClient, double arrivalRatePerMs, int openRequests, int connections,
            int cpus, String scheduler, CalibrationProfile profile, long seed, int replications, double minDurationMs) {
        this(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient, arrivalRatePerMs,
                openRequests, connections, cpus, schedulerOption(scheduler), profile, seed, replications, minDurationMs);
    }

    /** As the constructor above, without a minimum duration. */
    public MiddlewareConfig(Strategy strategy, int clients, int poolSize, double servantMs, boolean servantIsDelay,
            boolean exponential, int requestsPerClient, double arrivalRatePerMs, int openRequests, int connections,
            int cpus, String scheduler, CalibrationProfile profile, long seed, int replications) {
        this(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient, arrivalRatePerMs,
                openRequests, connections, cpus, schedulerOption(scheduler), profile, seed, replications, 0);
    }

    private static SchedulerKind schedulerOption(String name) {
        Objects.requireNonNull(name, "scheduler");
        try {
            return SchedulerKind.parse(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--scheduler must be ps, rr or linux24, got '" + name + "'");
        }
    }

    /** Validates the combination; messages name the command-line option at fault. */
    public MiddlewareConfig {
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(scheduler, "scheduler");
        boolean open = arrivalRatePerMs > 0;
        if (!open && clients < 1) {
            throw new IllegalArgumentException("--clients must be >= 1 (or give --arrivals poisson:RATE/s)");
        }
        if (open && (openRequests < 1)) {
            throw new IllegalArgumentException("--requests must be >= 1 with --arrivals");
        }
        if (open && connections < 1) {
            throw new IllegalArgumentException("--connections must be >= 1 with --arrivals");
        }
        if (!open && requestsPerClient < 1) {
            throw new IllegalArgumentException("--requests-per-client must be >= 1");
        }
        if (strategy == Strategy.THREAD_POOL && poolSize < 1) {
            throw new IllegalArgumentException("--pool-size must be >= 1 for the thread-pool strategy");
        }
        if (!(servantMs >= 0) || Double.isInfinite(servantMs)) {
            throw new IllegalArgumentException("servant demand must be a finite duration >= 0");
        }
        if (cpus < 1 || cpus > 1024) {
            throw new IllegalArgumentException("--cpus must be between 1 and 1024, got " + cpus);
        }
        if (!(minDurationMs >= 0) || Double.isInfinite(minDurationMs)) {
            throw new IllegalArgumentException("minimum duration must be a finite time >= 0, got " + minDurationMs);
        }
        if (replications < 1 || replications > 10_000) {
            throw new IllegalArgumentException("--replications must be between 1 and 10000, got " + replications);
        }
    }

    /** Whether the workload is open (Poisson arrivals) rather than closed clients. */
    public boolean open() {
        return arrivalRatePerMs > 0;
    }

    /** Number of connections (= receiver threads): clients when closed, connections when open. */
    public int receivers() {
        return open() ? connections : clients;
    }

    /** A copy with another pool size. */
    public MiddlewareConfig withPoolSize(int n) {
        return new MiddlewareConfig(strategy, clients, n, servantMs, servantIsDelay, exponential, requestsPerClient,
                arrivalRatePerMs, openRequests, connections, cpus, scheduler, profile, seed, replications, minDurationMs);
    }

    /** A copy with a minimum simulated duration for closed clients. */
    public MiddlewareConfig withMinDuration(double ms) {
        return new MiddlewareConfig(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient,
                arrivalRatePerMs, openRequests, connections, cpus, scheduler, profile, seed, replications, ms);
    }

    /** A copy with another profile. */
    public MiddlewareConfig withProfile(CalibrationProfile p) {
        return new MiddlewareConfig(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient,
                arrivalRatePerMs, openRequests, connections, cpus, scheduler, p, seed, replications, minDurationMs);
    }

    /**
     * A copy whose servant spends its CPU demand by {@code clock}, overriding the profile's
     * {@code servant_cpu_clock}: {@code cpu} (it needs that much CPU time) or {@code wall} (a busy
     * loop that ends at a wall-clock deadline, so time spent preempted counts as served).
     */
    public MiddlewareConfig withServantClock(String clock) {
        if (!clock.equals("cpu") && !clock.equals("wall")) {
            throw new IllegalArgumentException("--servant-clock must be cpu or wall, got '" + clock + "'");
        }
        return withProfile(profile.with(MiddlewareParams.SERVANT_CPU_CLOCK, clock));
    }

    /** A copy with another number of replications. */
    public MiddlewareConfig withReplications(int r) {
        return new MiddlewareConfig(strategy, clients, poolSize, servantMs, servantIsDelay, exponential, requestsPerClient,
                arrivalRatePerMs, openRequests, connections, cpus, scheduler, profile, seed, r, minDurationMs);
    }
}
