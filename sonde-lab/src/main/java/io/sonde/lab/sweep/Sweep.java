package io.sonde.lab.sweep;

import io.sonde.lab.load.ClosedWorkload;
import io.sonde.lab.load.ResponseTimes;
import io.sonde.lab.load.ServantSpec;
import io.sonde.lab.server.ServerStrategy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A client sweep on this machine: against one server JVM ({@link ServerProcess}), first an
 * unmeasured warm-up with at most two clients, never more than the first point's (so the JIT
 * compiler's CPU is not counted as the server's), then for each
 * client count a closed workload whose first tenth of the requests (at least 20) is not measured.
 *
 * @param strategy the server's threading strategy
 * @param poolSize the pool size (thread-pool)
 * @param servant the servant work of every request
 * @param clients client counts, in order
 * @param requestsPerPoint measured requests per point
 * @param maxPerPoint time bound of one point
 * @param thinkMeanNanos clients' think time (constant)
 * @param seed seed of the clients' streams
 */
public record Sweep(ServerStrategy strategy, int poolSize, ServantSpec servant, List<Integer> clients, int requestsPerPoint,
        Duration maxPerPoint, long thinkMeanNanos, long seed) {

    /** Copies the client list and validates it. */
    public Sweep {
        clients = List.copyOf(clients);
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c < 1)) {
            throw new IllegalArgumentException("--clients must be counts >= 1, got " + clients);
        }
        if (requestsPerPoint < 1) {
            throw new IllegalArgumentException("--requests must be >= 1, got " + requestsPerPoint);
        }
    }

    /** Warm-up requests of a point with {@code measured} measured requests. */
    static int warmup(int measured) {
        return Math.max(20, measured / 10);
    }

    /**
     * Starts a server JVM and measures every point.
     *
     * @param classPath class path of the server JVM
     * @param agentJar the Sonde agent jar, or null (no agent)
     * @param agentOptions the agent's options
     * @param progress told about each point when it is done
     */
    public List<SweepPoint> run(String classPath, Path agentJar, String agentOptions, Consumer<SweepPoint> progress)
            throws IOException, InterruptedException {
        try (ServerProcess server = ServerProcess.start(classPath, strategy, poolSize, agentJar, agentOptions)) {
            return measure(server, progress);
        }
    }

    /** Measures every point against a running server of this sweep's strategy. */
    public List<SweepPoint> measure(ServerProcess server, Consumer<SweepPoint> progress) throws IOException, InterruptedException {
        // at most 2 clients, never more than the first point's: a traced one-client calibration
        // run must show no second request in flight (Calibration reads its servant there alone)
        int warmupClients = Math.min(2, clients.get(0));
        new ClosedWorkload(warmupClients, servant, 0, false, seed - 1, 0, Math.max(40, requestsPerPoint / 5), maxPerPoint)
                .run(server.port());
        List<SweepPoint> points = new ArrayList<>();
        int processors = Runtime.getRuntime().availableProcessors();
        for (int n : clients) {
            ClosedWorkload w = new ClosedWorkload(n, servant, thinkMeanNanos, false, seed + n,
                    warmup(requestsPerPoint), requestsPerPoint, maxPerPoint);
            long cpu0 = server.cpuNanos();
            long t0 = System.nanoTime();
            ResponseTimes rt = w.run(server.port());
            long wall = System.nanoTime() - t0;
            long cpu1 = server.cpuNanos();
            double cpuMs = cpu0 < 0 || cpu1 < 0 ? Double.NaN : (cpu1 - cpu0) / 1e6;
            // CPU over the whole point (its warm-up included) per request sent in it
            int sent = rt.count() + warmup(requestsPerPoint);
            SweepPoint p = new SweepPoint(n, rt.count(), rt.meanMillis(), rt.percentileMillis(50), rt.percentileMillis(90),
                    rt.percentileMillis(99), rt.throughputPerSecond(), cpuMs / sent, cpuMs / (wall / 1e6) / processors,
                    rt.clientCpuMsPerRequest());
            points.add(p);
            progress.accept(p);
        }
        return points;
    }
}
