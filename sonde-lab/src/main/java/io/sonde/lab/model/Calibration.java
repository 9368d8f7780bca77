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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Calibrates a {@link LabModel} from low-load runs of the real server: trace the server's stages
 * with CPU time under the Sonde agent at a few client counts, turn the trace into service demands
 * ({@code sonde-demands/1}, as {@code sonde analyze --demands-json} writes it) and read the
 * stages' demands; then measure the same client counts once more without the agent for the
 * numbers the trace cannot show (network round trip, CPU outside the stages).
 *
 * <p>Why two runs: the agent's own work is CPU the measured server does not spend (its writer
 * thread, per-thread buffers of every new thread, compiling the instrumented code). Taken from the
 * traced run, the CPU outside the stages was up to twice the unperturbed server's at the same load
 * (thread-per-request with a 10 ms sleep: 0.55-0.66 against 0.33-0.39 ms per request at 1-2
 * clients), and at high load that surplus saturates processors the real server still has free.
 * The stages' CPU itself comes from the trace: the probe sits outside the interval it measures.
 *
 * <p>Each traced client count runs in its own server JVM, so the servant's wall-over-CPU ratio
 * ({@link #slowdown}) is read at one client alone: there the server has one request in flight and
 * only other processes can hold the processors. At two clients the servant also waits for the
 * server's own second request and the generator, which the model already simulates on its
 * processors; taking that ratio as a background factor counted the contention twice.
 *
 * @param model the calibrated model
 * @param points what the traced calibration runs measured (under the agent)
 * @param unperturbedPoints the same client counts measured without the agent
 * @param demandsFile the demand report of the traces of every calibration client count
 */
public record Calibration(LabModel model, List<SweepPoint> points, List<SweepPoint> unperturbedPoints, Path demandsFile) {

    /** The agent's options for tracing the lab server's stages into {@code logs}. */
    public static String agentOptions(Path logs) {
        return "include=" + StageDemands.agentInclude() + ",cpu.time=on,file.dir=" + logs.toAbsolutePath();
    }

    /**
     * Runs the server under the agent at each of {@code clients} (each count in its own JVM and
     * trace folder; 1 must be among them), analyses the traces in {@code workDir}, measures the
     * same counts without the agent and builds the model.
     */
    public static Calibration run(ServerStrategy strategy, int poolSize, ServantSpec servant, List<Integer> clients,
            int requestsPerPoint, Duration maxPerPoint, String classPath, Path agentJar, Path workDir, long seed,
            int replications, Consumer<SweepPoint> progress) throws IOException, InterruptedException {
        if (!clients.contains(1)) {
            throw new IllegalArgumentException("calibration needs the one-client point (got clients " + clients + ")");
        }
        List<Path> traces = new ArrayList<>();
        List<SweepPoint> points = new ArrayList<>();
        Path oneClientTrace = null;
        for (int n : clients) {
            Path logs = workDir.resolve("trace-" + n);
            Files.createDirectories(logs);
            traces.add(logs);
            if (n == 1) {
                oneClientTrace = logs;
            }
            points.addAll(new Sweep(strategy, poolSize, servant, List.of(n), requestsPerPoint, maxPerPoint, 0, seed)
                    .run(classPath, agentJar, agentOptions(logs), progress));
        }
        Path demandsFile = workDir.resolve("demands.json");
        writeDemands(traces, demandsFile);
        Path oneClientFile = workDir.resolve("demands-1.json");
        writeDemands(List.of(oneClientTrace), oneClientFile);
        List<SweepPoint> plain = new Sweep(strategy, poolSize, servant, clients, requestsPerPoint, maxPerPoint, 0, seed)
                .run(classPath, null, null, progress);
        LabModel model = model(strategy, poolSize, servant, StageDemands.read(demandsFile), StageDemands.read(oneClientFile),
                plain, Runtime.getRuntime().availableProcessors(), seed, replications);
        return new Calibration(model, points, plain, demandsFile);
    }

    /**
     * The model from the calibration's measurements: the stages' CPU from the traces of every
     * calibration count ({@code traced}), the slowdown from the one-client trace ({@code oneClient}),
     * the CPU outside the stages and the one-client response time (hence the network) from the
     * runs without the agent ({@code unperturbed}, which must hold the one-client point).
     */
    static LabModel model(ServerStrategy strategy, int poolSize, ServantSpec servant, StageDemands traced,
            StageDemands oneClient, List<SweepPoint> unperturbed, int cpus, long seed, int replications) {
        SweepPoint one = unperturbed.stream().filter(p -> p.clients() == 1).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("calibration needs the one-client point without the agent"));
        LabModel uncalibrated = new LabModel(strategy, poolSize, traced, servant.delay(), servant.exponential(), 0,
                extraCpuMs(traced, unperturbed), cpus, slowdown(oneClient, servant.delay()));
        return uncalibrated.calibrateNetwork(one.meanMs(), seed, replications);
    }

    /**
     * The background-load factor: a CPU servant's wall time over its CPU time in the one-client
     * trace (1 for a delay servant, whose wall time is the sleep): the share of a processor other
     * processes left the server while it had one request in flight.
     */
    static double slowdown(StageDemands d, boolean delay) {
        return delay || d.servantCpuMs() <= 0 ? 1 : Math.max(1, d.servantWallMs() / d.servantCpuMs());
    }

    /** Analyses the logs in the folders {@code logs} and writes their service demands to {@code out}. */
    public static void writeDemands(List<Path> logs, Path out) throws IOException {
        AnalysisResult r = Analyzer.run(new LogSource(logs), new AnalysisOptions());
        if (r.partial()) {
            throw new IOException("the trace in " + logs + " is damaged or incomplete: " + r.problems());
        }
        DemandReport.write(r, out);
    }

    /**
     * CPU per request outside the traced stages: the server JVM's CPU per request plus the load
     * generator's (it runs on the same processors), measured without the agent, minus the stages'
     * CPU from the trace, averaged over the calibration points; never negative.
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
