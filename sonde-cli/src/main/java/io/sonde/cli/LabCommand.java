package io.sonde.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.lab.load.ServantSpec;
import io.sonde.lab.model.Calibration;
import io.sonde.lab.model.LabServant;
import io.sonde.lab.model.Validation;
import io.sonde.lab.model.ValidationPlots;
import io.sonde.lab.server.ServerStrategy;
import io.sonde.lab.sweep.Sweep;
import io.sonde.lab.sweep.SweepJson;
import io.sonde.lab.sweep.SweepPoint;
import io.sonde.sim.model.Durations;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde lab}: the real four-strategy server of sonde-lab on this machine. {@code run}
 * measures a client sweep; {@code validate} calibrates the middleware model from low-load traces
 * and compares its predictions with measured sweeps (docs/simulator.md, "The lab").
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = {"Runs the lab's real request/reply server on this machine: measured sweeps and model validation.",
            "  sonde lab run --strategy thread-pool --pool 4 --clients 1,2,4,8 --servant-cpu 2ms --json sweep.json",
            "  sonde lab validate --quick --json validation.json"},
        subcommands = {LabCommand.Run.class, LabCommand.Validate.class})
public final class LabCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** {@code sonde lab run}: one strategy, one servant, a client sweep. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Measures mean and percentile response time, throughput and CPU use per client count, with the "
                    + "server in its own JVM (optionally under the Sonde agent) and closed clients in this one."})
    static final class Run implements Callable<Integer> {
        @Option(names = "--strategy", required = true, paramLabel = "NAME", description = "thread-per-client, threaded, thread-per-request or thread-pool")
        String strategy;

        @Option(names = "--clients", paramLabel = "LIST", description = "client counts: 1,2,4 or 1..64 (doubling); default 1..64")
        String clients = "1..64";

        @ArgGroup(exclusive = true, multiplicity = "1")
        Servant servant;

        /** The servant's demand: CPU or a delay. */
        static final class Servant {
            @Option(names = "--servant-cpu", paramLabel = "DURATION", description = "mean servant CPU time per request, e.g. 2ms")
            String cpu;

            @Option(names = "--servant-delay", paramLabel = "DURATION", description = "mean servant sleep per request, e.g. 10ms")
            String delay;
        }

        @Option(names = "--distribution", paramLabel = "exponential|constant", description = "servant demand distribution (default exponential)")
        String distribution = "exponential";

        @Option(names = "--pool", paramLabel = "N", description = "dispatcher threads of thread-pool (default 4)")
        int pool = 4;

        @Option(names = "--requests", paramLabel = "N", description = "measured requests per point (default 1000; a tenth more warm up)")
        int requests = 1000;

        @Option(names = "--seconds", paramLabel = "N", description = "time bound of one point in seconds (default 60)")
        int seconds = 60;

        @Option(names = "--think", paramLabel = "DURATION", description = "clients' think time between a reply and the next request (default 0)")
        String think = "0ms";

        @Option(names = "--seed", paramLabel = "N", description = "seed of the clients' demand streams (default 1)")
        long seed = 1;

        @Option(names = "--agent", description = "run the server under the Sonde agent, tracing its stages with CPU time into --trace-dir")
        boolean agent;

        @Option(names = "--trace-dir", paramLabel = "DIR", description = "where the agent writes the trace (default sonde-lab-trace)")
        Path traceDir = Path.of("sonde-lab-trace");

        @Option(names = "--agent-jar", paramLabel = "JAR", description = "the agent jar (default: as for 'sonde attach')")
        Path agentJar;

        @Option(names = "--json", paramLabel = "FILE", description = "write the sweep as JSON (schema sonde-lab-sweep/1)")
        Path json;

        @Override
        public Integer call() throws IOException, InterruptedException {
            ServerStrategy st = strategy(strategy);
            boolean delay = servant.delay != null;
            ServantSpec spec = new ServantSpec(delay, nanos(delay ? "--servant-delay" : "--servant-cpu", delay ? servant.delay : servant.cpu),
                    exponential(distribution));
            if (requests < 1 || seconds < 1) {
                throw new UsageError("--requests and --seconds must be >= 1");
            }
            if (st == ServerStrategy.THREAD_POOL && pool < 1) {
                throw new UsageError("--pool must be >= 1 for thread-pool, got " + pool);
            }
            Sweep sweep = new Sweep(st, pool, spec, parseClients("--clients", clients), requests, Duration.ofSeconds(seconds),
                    nanos("--think", think), seed);
            Path jar = null;
            String options = null;
            if (agent) {
                jar = AttachCommand.locateAgentJar(agentJar);
                Files.createDirectories(traceDir);
                options = Calibration.agentOptions(traceDir);
            }
            PrintStream out = System.out;
            out.printf(Locale.ROOT, "lab run: %s%s, servant %s, %d processors, load average %.2f%s%n", st.spelling(),
                    st == ServerStrategy.THREAD_POOL ? " (pool " + pool + ")" : "", spec, Runtime.getRuntime().availableProcessors(),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    agent ? ", under the agent (trace in " + traceDir + ")" : "");
            out.printf(Locale.ROOT, "%8s %9s %10s %10s %10s %10s %12s %14s %12s%n", "clients", "requests", "mean_ms", "p50_ms", "p90_ms",
                    "p99_ms", "throughput/s", "server_cpu_ms", "server_util");
            List<SweepPoint> points = sweep.run(System.getProperty("java.class.path"), jar, options, p -> {
                out.printf(Locale.ROOT, "%8d %9d %10.3f %10.3f %10.3f %10.3f %12.1f %14.3f %12.3f%n", p.clients(), p.requests(), p.meanMs(),
                        p.p50Ms(), p.p90Ms(), p.p99Ms(), p.throughputPerSecond(), p.serverCpuMsPerRequest(), p.serverCpuUtilization());
                out.flush();
            });
            if (json != null) {
                ObjectNode o = SweepJson.object();
                o.put("schema", "sonde-lab-sweep/1");
                o.put("strategy", st.spelling());
                o.put("pool", pool);
                ObjectNode s = o.putObject("servant");
                s.put("kind", delay ? "delay" : "cpu");
                s.put("mean_ms", spec.meanMillis());
                s.put("distribution", spec.exponential() ? "exponential" : "constant");
                o.put("agent", agent);
                o.set("machine", SweepJson.machine());
                o.set("points", SweepJson.points(points));
                SweepJson.write(o, json);
                out.println("JSON: " + json);
            }
            return 0;
        }
    }

    /** {@code sonde lab validate}: calibrate at low load, predict and measure the sweep, compare. */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = {"For every strategy and servant kind (cpu-small 1 ms, cpu-large 5 ms, delay 10 ms, exponential): "
                    + "traces the server under the agent at 1 and 2 clients, derives the model's demands from the trace, "
                    + "predicts the client sweep with sonde-sim's middleware model, measures it without the agent and reports "
                    + "the mean absolute relative error of the mean response time."})
    static final class Validate implements Callable<Integer> {
        @Option(names = "--quick", description = "clients 1-8 with 100 requests per point (77 s here with the load average at 1-2) instead of 1-64 with 1000")
        boolean quick;

        @Option(names = "--json", paramLabel = "FILE", description = "write one object per strategy and servant kind")
        Path json;

        @Option(names = "--strategy", paramLabel = "NAME", split = ",", description = "only these strategies (default all four)")
        List<String> strategies;

        @Option(names = "--servant", paramLabel = "KIND", split = ",", description = "only these servant kinds: cpu-small, cpu-large, delay (default all)")
        List<String> servants;

        @Option(names = "--png", paramLabel = "DIR", description = "plot measured and predicted response times, one lab-STRATEGY.png per strategy")
        Path png;

        @Option(names = "--work-dir", paramLabel = "DIR", description = "where traces and demand files go (default a new temporary folder)")
        Path workDir;

        @Option(names = "--agent-jar", paramLabel = "JAR", description = "the agent jar (default: as for 'sonde attach')")
        Path agentJar;

        @Override
        public Integer call() throws IOException, InterruptedException {
            Validation.Settings base = quick ? Validation.Settings.quick() : Validation.Settings.full();
            List<ServerStrategy> st = new ArrayList<>(base.strategies());
            if (strategies != null) {
                st.clear();
                strategies.forEach(s -> st.add(strategy(s)));
            }
            List<LabServant> sv = new ArrayList<>(base.servants());
            if (servants != null) {
                sv.clear();
                for (String s : servants) {
                    try {
                        sv.add(LabServant.parse(s));
                    } catch (IllegalArgumentException e) {
                        throw new UsageError("--servant: " + e.getMessage());
                    }
                }
            }
            Validation.Settings s = new Validation.Settings(base.calibrateOn(), base.clients(), base.requestsPerPoint(),
                    base.maxPerPoint(), base.poolSize(), base.replications(), base.seed(), st, sv);
            Path jar = AttachCommand.locateAgentJar(agentJar);
            Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("sonde-lab-validate");
            PrintStream out = System.out;
            out.printf(Locale.ROOT, "lab validate%s: %d processors, load average %.2f at the start; traces in %s%n", quick ? " --quick" : "",
                    Runtime.getRuntime().availableProcessors(),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), dir);
            long t0 = System.nanoTime();
            List<Validation.Row> rows = Validation.run(s, System.getProperty("java.class.path"), jar, dir, line -> {
                System.err.println(line);
                System.err.flush();
            });
            double seconds = (System.nanoTime() - t0) / 1e9;
            out.printf(Locale.ROOT, "%-20s %-10s %8s %9s  %s%n", "strategy", "servant", "mare", "held-out", "clients: measured / predicted ms");
            for (Validation.Row r : rows) {
                StringBuilder pts = new StringBuilder();
                for (int i = 0; i < r.clients().size(); i++) {
                    pts.append(String.format(Locale.ROOT, " %d: %.2f/%.2f", r.clients().get(i), r.measuredMs().get(i), r.predictedMs().get(i)));
                }
                out.printf(Locale.ROOT, "%-20s %-10s %7.1f%% %8.1f%% %s%n", r.strategy().spelling(), r.servant().spelling(), 100 * r.mare(),
                        100 * r.mareHeldOut(), pts);
            }
            out.printf(Locale.ROOT, "calibrated on clients %s only; %.0f s; load average %.2f at the end%n", s.calibrateOn(), seconds,
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            ArrayNode a = Validation.json(rows, s, seconds);
            if (json != null) {
                SweepJson.write(a, json);
                out.println("JSON: " + json);
            }
            if (png != null) {
                for (Path f : ValidationPlots.write(a, png)) {
                    out.println("PNG: " + f);
                }
            }
            return 0;
        }
    }

    static ServerStrategy strategy(String s) {
        try {
            return ServerStrategy.parse(s);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--strategy: " + e.getMessage());
        }
    }

    static boolean exponential(String distribution) {
        return switch (distribution.toLowerCase(Locale.ROOT)) {
            case "exponential", "exp" -> true;
            case "constant", "deterministic", "det" -> false;
            default -> throw new UsageError("--distribution must be exponential or constant, got '" + distribution + "'");
        };
    }

    static long nanos(String option, String text) {
        return Math.round(millis(option, text) * 1e6);
    }

    /** A duration option ({@code 2ms}, {@code 0.5s}) in ms; a bad one is a usage error naming the option. */
    static double millis(String option, String text) {
        try {
            return Durations.parseMillis(text);
        } catch (IllegalArgumentException e) {
            throw new UsageError(option + ": " + e.getMessage());
        }
    }

    /**
     * Client counts: a comma-separated list ({@code 1,2,4}) or a doubling range ({@code 1..64}:
     * 1, 2, 4, ..., 64; the upper end is included even when not reached by doubling).
     */
    static List<Integer> parseClients(String option, String text) {
        List<Integer> out = new ArrayList<>();
        try {
            if (text.contains("..")) {
                String[] ends = text.split("\\.\\.", -1);
                int lo = Integer.parseInt(ends[0].trim());
                int hi = Integer.parseInt(ends[1].trim());
                if (ends.length != 2 || lo < 1 || hi < lo) {
                    throw new UsageError(option + ": range '" + text + "' must be LOW..HIGH with 1 <= LOW <= HIGH");
                }
                for (long n = lo; n < hi; n *= 2) {
                    out.add((int) n);
                }
                out.add(hi);
            } else {
                for (String part : text.split(",", -1)) {
                    int n = Integer.parseInt(part.trim());
                    if (n < 1) {
                        throw new UsageError(option + ": client counts must be >= 1, got " + n);
                    }
                    out.add(n);
                }
            }
        } catch (NumberFormatException e) {
            throw new UsageError(option + ": '" + text + "' is not a list of counts (1,2,4) or a range (1..64)");
        }
        if (out.size() > 64 || out.stream().anyMatch(n -> n > 4096)) {
            throw new UsageError(option + ": at most 64 counts of at most 4096 clients, got '" + text + "'");
        }
        return out;
    }
}
