package io.sonde.lab.model;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.demand.DemandReport;
import io.sonde.analysis.input.LogSource;
import io.sonde.lab.load.ServantSpec;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.Sweep;
import io.sonde.lab.sweep.SweepPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Calibrates a {@link LabModel} from a low-load run of the real server under the Sonde agent:
 * trace the server's stages with CPU time at a few client counts, turn the trace into service
 * demands ({@code sonde-demands/1}, as {@code sonde analyze --demands-json} writes it), read the
 * stages' demands, and take the two numbers the trace cannot show (network round trip, CPU
 * outside the stages) from the same low-load run.
 *
 * @param model the calibrated model
 * @param points what the calibration run measured
 * @param demandsFile the demand report of the trace
 */
public record Calibration(LabModel model, List<SweepPoint> points, Path demandsFile) {

    /** The agent's options for tracing the lab server's stages into {@code logs}. */
    public static String agentOptions(Path logs) {
        return "include=" + StageDemands.agentInclude() + ",cpu.time=on,file.dir=" + logs.toAbsolutePath();
    }

    /**
     * Runs the server under the agent at {@code clients} (the lowest first: its response time
     * fixes the network round trip), analyses the trace in {@code workDir} and builds the model.
     */
    public static Calibration run(ServerStrategy strategy, int poolSize, ServantSpec servant, List<Integer> clients,
            int requestsPerPoint, Duration maxPerPoint, String classPath, Path agentJar, Path workDir, long seed,
            int replications, Consumer<SweepPoint> progress) throws IOException, InterruptedException {
        Path logs = workDir.resolve("trace");
        Files.createDirectories(logs);
        List<SweepPoint> points = new Sweep(strategy, poolSize, servant, clients, requestsPerPoint, maxPerPoint, 0, seed)
                .run(classPath, agentJar, agentOptions(logs), progress);
        Path demandsFile = workDir.resolve("demands.json");
        writeDemands(logs, demandsFile);
        StageDemands d = StageDemands.read(demandsFile);
        double extra = extraCpuMs(d, points);
        LabModel uncalibrated = new LabModel(strategy, poolSize, d, servant.delay(), servant.exponential(), 0, extra,
                Runtime.getRuntime().availableProcessors(), slowdown(d, servant.delay()));
        SweepPoint lowest = points.stream().min((a, b) -> Integer.compare(a.clients(), b.clients())).orElseThrow();
        double oneClient = lowest.meanMs();
        if (lowest.clients() != 1) {
            throw new IllegalArgumentException("calibration needs the one-client point (got clients " + clients + ")");
        }
        return new Calibration(uncalibrated.calibrateNetwork(oneClient, seed, replications), points, demandsFile);
    }

    /**
     * The background-load factor: a CPU servant's wall time over its CPU time in the low-load
     * trace (1 for a delay servant, whose wall time is the sleep).
     */
    static double slowdown(StageDemands d, boolean delay) {
        return delay || d.servantCpuMs() <= 0 ? 1 : Math.max(1, d.servantWallMs() / d.servantCpuMs());
    }

    /** Analyses the logs in {@code logs} and writes their service demands to {@code out}. */
    public static void writeDemands(Path logs, Path out) throws IOException {
        AnalysisResult r = Analyzer.run(new LogSource(List.of(logs)), new AnalysisOptions());
        if (r.partial()) {
            throw new IOException("the trace in " + logs + " is damaged or incomplete: " + r.problems());
        }
        DemandReport.write(r, out);
    }

    /**
     * CPU per request outside the traced stages: the server JVM's CPU per request plus the load
     * generator's (it runs on the same processors) minus the stages' CPU, averaged over the
     * calibration points; never negative.
     */
    static double extraCpuMs(StageDemands d, List<SweepPoint> points) {
        double stages = d.receiveCpuMs() + d.dispatchCpuMs() + d.servantCpuMs() + d.replyCpuMs() + d.lockCpuMs()
                + d.threadStartCpuMs() + d.enqueueCpuMs();
        double sum = 0;
        int n = 0;
        for (SweepPoint p : points) {
            double total = p.serverCpuMsPerRequest() + (Double.isNaN(p.clientCpuMsPerRequest()) ? 0 : p.clientCpuMsPerRequest());
            if (!Double.isNaN(total)) {
                sum += total;
                n++;
            }
        }
        return n == 0 ? 0 : Math.max(0, sum / n - stages);
    }
}
