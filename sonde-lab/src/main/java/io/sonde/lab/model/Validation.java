package io.sonde.lab.model;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.ServerProcess;
import io.sonde.lab.sweep.Sweep;
import io.sonde.lab.sweep.SweepJson;
import io.sonde.lab.sweep.SweepPoint;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Out-of-sample validation on this machine ({@code sonde lab validate}): for every strategy and
 * servant kind, calibrate a {@link LabModel} from low-load runs only (traced, and once more
 * without the agent), predict the whole client sweep, measure the sweep on a server without the
 * agent, and compare mean response times.
 */
public final class Validation {

    /**
     * What to run.
     *
     * @param calibrateOn client counts of the traced calibration run (must include 1)
     * @param clients client counts of the measured and predicted sweep
     * @param requestsPerPoint measured requests per point
     * @param maxPerPoint time bound of one point
     * @param poolSize pool size of thread-pool
     * @param replications model replications per point
     * @param seed seed of the clients and the model
     * @param strategies strategies to validate
     * @param servants servant kinds to validate
     */
    public record Settings(List<Integer> calibrateOn, List<Integer> clients, int requestsPerPoint, Duration maxPerPoint,
            int poolSize, int replications, long seed, List<ServerStrategy> strategies, List<LabServant> servants) {

        /** The CI mode: clients 1-8, 100 requests per point. */
        public static Settings quick() {
            return new Settings(List.of(1, 2), List.of(1, 2, 4, 8), 100, Duration.ofSeconds(20), 4, 3, 1,
                    List.of(ServerStrategy.values()), List.of(LabServant.values()));
        }

        /** The full sweep: clients 1-64, 1000 requests per point. */
        public static Settings full() {
            return new Settings(List.of(1, 2), List.of(1, 2, 4, 8, 16, 32, 64), 1000, Duration.ofSeconds(60), 4, 5, 1,
                    List.of(ServerStrategy.values()), List.of(LabServant.values()));
        }
    }

    /**
     * One strategy and servant kind: measured and predicted mean response time per client count.
     *
     * @param mare mean absolute relative error of the prediction over every client count
     * @param mareHeldOut the same over the client counts the calibration did not run
     */
    public record Row(ServerStrategy strategy, LabServant servant, List<Integer> clients, List<Double> measuredMs,
            List<Double> predictedMs, List<Double> measuredThroughput, List<Double> predictedThroughput, double mare,
            double mareHeldOut, List<Integer> calibratedOn, Map<String, Double> parameters) {}

    private Validation() {}

    /** Runs the validation; {@code log} gets a line per step. */
    public static List<Row> run(Settings s, String classPath, Path agentJar, Path workDir, Consumer<String> log)
            throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        for (ServerStrategy strategy : s.strategies()) {
            List<Calibration> calibrations = new ArrayList<>();
            for (LabServant servant : s.servants()) {
                log.accept("calibrating " + strategy.spelling() + " / " + servant.spelling() + " under the agent at clients " + s.calibrateOn());
                calibrations.add(Calibration.run(strategy, s.poolSize(), servant.spec(), s.calibrateOn(), s.requestsPerPoint(),
                        s.maxPerPoint(), classPath, agentJar, workDir.resolve(strategy.spelling() + "-" + servant.spelling()),
                        s.seed(), s.replications(), p -> { }));
            }
            // one server JVM without the agent measures every servant kind of this strategy
            try (ServerProcess server = ServerProcess.start(classPath, strategy, s.poolSize(), null, null)) {
                for (int i = 0; i < s.servants().size(); i++) {
                    LabServant servant = s.servants().get(i);
                    log.accept("measuring " + strategy.spelling() + " / " + servant.spelling() + " at clients " + s.clients());
                    List<SweepPoint> measured = new Sweep(strategy, s.poolSize(), servant.spec(), s.clients(), s.requestsPerPoint(),
                            s.maxPerPoint(), 0, s.seed() + 1000).measure(server, p -> { });
                    rows.add(compare(strategy, servant, measured, calibrations.get(i).model(), s));
                    log.accept(String.format(java.util.Locale.ROOT, "  %s / %s: mean error %.1f %% (held-out %.1f %%)",
                            strategy.spelling(), servant.spelling(), 100 * rows.get(rows.size() - 1).mare(),
                            100 * rows.get(rows.size() - 1).mareHeldOut()));
                }
            }
        }
        return rows;
    }

    static Row compare(ServerStrategy strategy, LabServant servant, List<SweepPoint> measured, LabModel model, Settings s) {
        List<Integer> clients = new ArrayList<>();
        List<Double> m = new ArrayList<>();
        List<Double> p = new ArrayList<>();
        List<Double> mx = new ArrayList<>();
        List<Double> px = new ArrayList<>();
        double sum = 0;
        double heldOut = 0;
        int nHeldOut = 0;
        for (SweepPoint point : measured) {
            LabModel.Prediction pr = model.predict(point.clients(), s.seed(), s.replications());
            clients.add(point.clients());
            m.add(point.meanMs());
            p.add(pr.responseMs());
            mx.add(point.throughputPerSecond());
            px.add(pr.throughputPerSecond());
            double err = Math.abs(pr.responseMs() - point.meanMs()) / point.meanMs();
            sum += err;
            if (!s.calibrateOn().contains(point.clients())) {
                heldOut += err;
                nHeldOut++;
            }
        }
        return new Row(strategy, servant, clients, m, p, mx, px, sum / measured.size(),
                nHeldOut == 0 ? Double.NaN : heldOut / nHeldOut, s.calibrateOn(), model.parameters());
    }

    /** The contract's JSON: one object per strategy and servant kind (docs/simulator.md, "The lab"). */
    public static ArrayNode json(List<Row> rows, Settings s, double runSeconds) {
        ArrayNode a = SweepJson.object().arrayNode();
        ObjectNode machine = SweepJson.machine();
        for (Row r : rows) {
            ObjectNode o = a.addObject();
            o.put("strategy", r.strategy().spelling());
            o.put("servant", r.servant().spelling());
            ArrayNode c = o.putArray("clients");
            r.clients().forEach(c::add);
            numbers(o.putArray("measured_ms"), r.measuredMs());
            numbers(o.putArray("predicted_ms"), r.predictedMs());
            SweepJson.put(o, "mare", r.mare());
            SweepJson.put(o, "mare_held_out", r.mareHeldOut());
            ArrayNode cal = o.putArray("calibrated_on");
            r.calibratedOn().forEach(cal::add);
            numbers(o.putArray("measured_throughput_per_s"), r.measuredThroughput());
            numbers(o.putArray("predicted_throughput_per_s"), r.predictedThroughput());
            o.put("servant_mean_ms", r.servant().spec().meanMillis());
            o.put("pool", s.poolSize());
            o.put("requests_per_point", s.requestsPerPoint());
            ObjectNode params = o.putObject("parameters");
            r.parameters().forEach((k, v) -> SweepJson.put(params, k, v));
            o.set("machine", machine);
            o.put("run_seconds", runSeconds);
        }
        return a;
    }

    private static void numbers(ArrayNode a, List<Double> values) {
        for (double v : values) {
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                a.addNull();
            } else {
                a.add(v);
            }
        }
    }
}
