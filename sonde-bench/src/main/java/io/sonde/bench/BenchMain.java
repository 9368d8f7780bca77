package io.sonde.bench;

import java.util.Arrays;

/**
 * Entry point of {@code ./sonde bench}: {@code micro} runs the JMH hot-path benchmarks,
 * {@code overhead} the MooBench-style overhead comparison, {@code sim} the simulator benchmark,
 * {@code analysis} the analysis throughput and memory benchmark, {@code real} the benchmark on real
 * libraries (H2, Javalin/Jetty) with no agent, Sonde and Kieker, {@code ingest} the collector's ingest
 * rate, {@code mooms} the MOOMS live-monitoring experiment against JMX notifications, {@code packing}
 * the packing study (static degrees against adaptive packing), {@code live} the live layer's cost to the
 * application's thread (sensor gate, request objects created and deleted), {@code weave} the agent's
 * weaving time per class on H2 (start-up and attach), {@code kafka} records/s through agent → edge
 * collector → Kafka → two archiving collectors, {@code compress} what {@code compress=lz4} costs and saves on the
 * demo and on H2.
 * See docs/benchmarks.md.
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) throws Exception {
        String which = args.length == 0 ? "" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (which) {
                case "micro":
                    io.sonde.bench.micro.MicroBenchmark.main(rest);
                    return;
                case "overhead":
                    io.sonde.bench.overhead.OverheadBenchmark.main(rest);
                    return;
                case "sim":
                    simBenchmark(rest);
                    return;
                case "analysis":
                    io.sonde.bench.analysis.AnalysisBenchmark.main(rest);
                    return;
                case "real":
                    io.sonde.bench.real.RealBenchmark.main(rest);
                    return;
                case "ingest":
                    io.sonde.bench.ingest.IngestBenchmark.main(rest);
                    return;
                case "mooms":
                    io.sonde.bench.mooms.MoomsBenchmark.main(rest);
                    return;
                case "weave":
                    io.sonde.bench.weave.WeaveBenchmark.main(rest);
                    return;
                case "packing":
                    io.sonde.bench.packing.PackingBenchmark.main(rest);
                    return;
                case "live":
                    io.sonde.bench.live.LiveCostBenchmark.main(rest);
                    return;
                case "kafka":
                    io.sonde.bench.kafka.KafkaBenchmark.main(rest);
                    return;
                case "compress":
                    io.sonde.bench.compress.CompressBenchmark.main(rest);
                    return;
                default:
                    System.err.println("usage: sonde bench micro|overhead|sim|analysis|real|weave|ingest|mooms|packing|live|kafka|compress [options]   (see docs/benchmarks.md)");
                    System.exit(2);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("sonde bench " + which + ": " + e.getMessage());
            System.exit(2);
        }
    }

    private static void simBenchmark(String[] args) throws Exception {
        // Looked up by name so this module builds before the simulator benchmark lands.
        Class<?> c = Class.forName("io.sonde.bench.sim.SimBenchmark");
        c.getMethod("main", String[].class).invoke(null, (Object) args);
    }
}
