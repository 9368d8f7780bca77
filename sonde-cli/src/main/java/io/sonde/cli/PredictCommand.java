package io.sonde.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.lab.model.LabModel;
import io.sonde.lab.model.StageDemands;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.SweepJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde predict}: from the service demands of a traced server ({@code sonde analyze
 * --demands-json}) to predicted response time and throughput for a strategy, pool size, CPU count
 * and client range, with sonde-sim's middleware model ({@link LabModel}).
 */
@Command(name = "predict", mixinStandardHelpOptions = true,
        description = {"Predicts response time and throughput from service demands measured in a trace of the lab server.",
            "  sonde analyze trace/ --demands-json demands.json",
            "  sonde predict --demands demands.json --strategy thread-pool --pool 4 --cpus 2 --clients 1..64 --json p.json --png p.png"})
public final class PredictCommand implements Callable<Integer> {

    @Option(names = "--demands", required = true, paramLabel = "FILE", description = "service demands, schema sonde-demands/1 (sonde analyze --demands-json)")
    Path demands;

    @Option(names = "--strategy", required = true, paramLabel = "NAME", description = "thread-per-client, threaded, thread-per-request or thread-pool")
    String strategy;

    @Option(names = "--pool", paramLabel = "N", description = "dispatcher threads of thread-pool (default 4)")
    int pool = 4;

    @Option(names = "--cpus", paramLabel = "N", description = "processors (default: this machine's)")
    int cpus = Runtime.getRuntime().availableProcessors();

    @Option(names = "--clients", paramLabel = "LIST", description = "client counts: 1,2,4 or 1..64 (doubling); default 1..64")
    String clients = "1..64";

    @Option(names = "--servant", paramLabel = "cpu|delay", description = "whether the servant spends CPU (its CPU time is the demand) or sleeps (its wall time); default cpu")
    String servant = "cpu";

    @Option(names = "--distribution", paramLabel = "exponential|constant", description = "servant demand distribution (default exponential)")
    String distribution = "exponential";

    @Option(names = "--network", paramLabel = "DURATION", description = "round trip outside the server's stages (default 0)")
    String network;

    @Option(names = "--one-client", paramLabel = "DURATION", description = "measured one-client response time: fit --network to it instead")
    String oneClient;

    @Option(names = "--extra-cpu", paramLabel = "DURATION", description = "CPU per request outside the traced stages (default 0)")
    String extraCpu = "0ms";

    @Option(names = "--cpu-slowdown", paramLabel = "F", description = "factor >= 1 on every CPU demand for background load (default 1)")
    double cpuSlowdown = 1;

    @Option(names = "--replications", paramLabel = "N", description = "model replications per point (default 5)")
    int replications = 5;

    @Option(names = "--seed", paramLabel = "N", description = "model seed (default 1)")
    long seed = 1;

    @Option(names = "--json", paramLabel = "FILE", description = "write the prediction as JSON")
    Path json;

    @Option(names = "--png", paramLabel = "FILE", description = "plot response time against clients")
    Path png;

    @Override
    public Integer call() throws IOException {
        ServerStrategy st = LabCommand.strategy(strategy);
        if (!servant.equals("cpu") && !servant.equals("delay")) {
            throw new UsageError("--servant must be cpu or delay, got '" + servant + "'");
        }
        if (network != null && oneClient != null) {
            throw new UsageError("give --network or --one-client, not both");
        }
        if (replications < 1 || replications > 1000) {
            throw new UsageError("--replications must be between 1 and 1000, got " + replications);
        }
        List<Integer> counts = LabCommand.parseClients("--clients", clients);
        StageDemands d;
        try {
            d = StageDemands.read(demands);
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        LabModel model;
        try {
            model = new LabModel(st, pool, d, servant.equals("delay"), LabCommand.exponential(distribution),
                    network == null ? 0 : LabCommand.millis("--network", network), LabCommand.millis("--extra-cpu", extraCpu), cpus, cpuSlowdown);
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        if (oneClient != null) {
            model = model.calibrateNetwork(LabCommand.millis("--one-client", oneClient), seed, replications);
        }
        PrintStream out = System.out;
        out.printf(Locale.ROOT, "predict: %s%s, %d cpus, demands from %s (%d traced requests)%n", st.spelling(),
                st == ServerStrategy.THREAD_POOL ? " (pool " + pool + ")" : "", cpus, demands, d.requests());
        StringBuilder params = new StringBuilder();
        for (Map.Entry<String, Double> e : model.parameters().entrySet()) {
            params.append(String.format(Locale.ROOT, " %s=%.4f", e.getKey(), e.getValue()));
        }
        out.println("parameters:" + params);
        out.printf(Locale.ROOT, "%8s %12s %14s %10s%n", "clients", "response_ms", "throughput/s", "cpu_util");
        List<LabModel.Prediction> predictions = new ArrayList<>();
        for (int n : counts) {
            LabModel.Prediction p = model.predict(n, seed, replications);
            predictions.add(p);
            out.printf(Locale.ROOT, "%8d %12.3f %14.1f %10.3f%n", n, p.responseMs(), p.throughputPerSecond(), p.cpuUtilization());
        }
        if (json != null) {
            ObjectNode o = SweepJson.object();
            o.put("schema", "sonde-lab-prediction/1");
            o.put("strategy", st.spelling());
            o.put("pool", pool);
            o.put("cpus", cpus);
            ObjectNode ps = o.putObject("parameters");
            model.parameters().forEach((k, v) -> SweepJson.put(ps, k, v));
            ArrayNode a = o.putArray("points");
            for (LabModel.Prediction p : predictions) {
                ObjectNode po = a.addObject();
                po.put("clients", p.clients());
                SweepJson.put(po, "response_ms", p.responseMs());
                SweepJson.put(po, "throughput_per_s", p.throughputPerSecond());
                SweepJson.put(po, "cpu_utilization", p.cpuUtilization());
            }
            SweepJson.write(o, json);
            out.println("JSON: " + json);
        }
        if (png != null) {
            XYChart chart = new XYChartBuilder().width(800).height(500)
                    .title("Predicted response time: " + st.spelling()).xAxisTitle("clients").yAxisTitle("response time (ms)").build();
            chart.addSeries("predicted", counts.stream().mapToDouble(Integer::doubleValue).toArray(),
                    predictions.stream().mapToDouble(LabModel.Prediction::responseMs).toArray());
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
            out.println("PNG: " + png);
        }
        return 0;
    }
}
