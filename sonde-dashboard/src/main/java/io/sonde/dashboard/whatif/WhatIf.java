package io.sonde.dashboard.whatif;

import io.sonde.sim.model.MiddlewareConfig;
import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.model.Strategy;
import io.sonde.sim.profile.CalibrationProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The what-if view's thin call into sonde-sim: the middleware model ({@link MiddlewareModel}) run
 * once per client count with a servant demand measured from a log, giving predicted response time
 * and throughput against load and the knee of the curve.
 */
public final class WhatIf {
    /** Most client counts simulated in one prediction. */
    public static final int MAX_POINTS = 16;
    /** Most closed clients in one simulated point. */
    public static final int MAX_CLIENTS = 512;
    /** Requests simulated per point in all (spread over its clients), enough for stable means. */
    static final int REQUESTS_PER_POINT = 4_000;

    private WhatIf() {}

    /**
     * What to predict.
     *
     * @param servantMs the request's CPU demand, ms (from the log's service demands)
     * @param strategy the threading strategy
     * @param poolSize dispatcher threads (thread-pool only; ignored otherwise)
     * @param cpus processors of the server
     * @param clientsFrom fewest closed clients
     * @param clientsTo most closed clients
     * @param points client counts to simulate between the two, evenly spread (at least 2 unless equal)
     * @param seed seed of the simulation
     */
    public record Question(double servantMs, Strategy strategy, int poolSize, int cpus, int clientsFrom, int clientsTo,
            int points, long seed) {
        /** Checks the ranges; messages name the parameter at fault. */
        public Question {
            Objects.requireNonNull(strategy, "strategy");
            if (!(servantMs >= 0) || Double.isInfinite(servantMs)) {
                throw new IllegalArgumentException("servant demand must be a finite time >= 0 ms, got " + servantMs);
            }
            if (poolSize < 1 || poolSize > 1024) throw new IllegalArgumentException("poolSize must be between 1 and 1024, got " + poolSize);
            if (cpus < 1 || cpus > 1024) throw new IllegalArgumentException("cpus must be between 1 and 1024, got " + cpus);
            if (clientsFrom < 1 || clientsFrom > MAX_CLIENTS) {
                throw new IllegalArgumentException("clientsFrom must be between 1 and " + MAX_CLIENTS + ", got " + clientsFrom);
            }
            if (clientsTo < clientsFrom || clientsTo > MAX_CLIENTS) {
                throw new IllegalArgumentException("clientsTo must be between clientsFrom (" + clientsFrom + ") and " + MAX_CLIENTS + ", got " + clientsTo);
            }
            if (points < 1 || points > MAX_POINTS) throw new IllegalArgumentException("points must be between 1 and " + MAX_POINTS + ", got " + points);
        }

        /** The client counts simulated: evenly spread from {@code clientsFrom} to {@code clientsTo}, without repeats. */
        public List<Integer> clientCounts() {
            List<Integer> out = new ArrayList<>();
            int n = Math.min(points, clientsTo - clientsFrom + 1);
            for (int i = 0; i < n; i++) {
                int c = n == 1 ? clientsFrom : (int) Math.round(clientsFrom + (double) (clientsTo - clientsFrom) * i / (n - 1));
                if (out.isEmpty() || out.get(out.size() - 1) != c) out.add(c);
            }
            return out;
        }
    }

    /**
     * One simulated load.
     *
     * @param clients closed clients
     * @param responseTimeMs mean response time and its 95% half-width ({@code responseTimeCi95Ms}, NaN with one replication)
     * @param throughputPerSecond completed requests per second
     * @param cpuUtilization server CPU utilisation (0..1), NaN when the model does not give it
     */
    public record Point(int clients, double responseTimeMs, double responseTimeCi95Ms, double throughputPerSecond, double cpuUtilization) {
        /** Kleinrock's power: throughput per unit of response time; the knee is where it peaks. */
        public double power() {
            return responseTimeMs > 0 ? throughputPerSecond / responseTimeMs : 0;
        }
    }

    /**
     * The prediction.
     *
     * @param points one per client count, in order
     * @param knee index in {@code points} of the knee: the load with the highest power
     *     (throughput / response time), beyond which response time grows faster than throughput
     */
    public record Prediction(List<Point> points, int knee) {}

    /** Runs the middleware model for each client count of {@code q}. */
    public static Prediction predict(Question q) {
        CalibrationProfile profile = CalibrationProfile.defaultProfile();
        List<Point> points = new ArrayList<>();
        for (int clients : q.clientCounts()) {
            int perClient = Math.max(20, REQUESTS_PER_POINT / clients);
            MiddlewareConfig cfg = new MiddlewareConfig(q.strategy(), clients, q.poolSize(), q.servantMs(), false, true,
                    perClient, 0, 0, 1, q.cpus(), "linux24", profile, q.seed(), 1);
            SimulationResult r = MiddlewareModel.run(cfg);
            SimulationResult.Estimate rt = r.get("response_time_ms");
            SimulationResult.Estimate cpu = r.get("cpu_utilization");
            points.add(new Point(clients, rt == null ? Double.NaN : rt.mean(), rt == null ? Double.NaN : rt.ci95(),
                    r.mean("throughput_per_s"), cpu == null ? Double.NaN : cpu.mean()));
        }
        int knee = 0;
        for (int i = 1; i < points.size(); i++) if (points.get(i).power() > points.get(knee).power()) knee = i;
        return new Prediction(List.copyOf(points), knee);
    }
}
