package io.sonde.cli;

import io.sonde.sim.model.Durations;
import io.sonde.sim.model.MiddlewareConfig;
import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.model.Strategy;
import io.sonde.sim.profile.CalibrationProfile;
import io.sonde.sim.scenario.ScenarioException;
import io.sonde.sim.scenario.ScenarioFile;
import io.sonde.sim.scenario.ScenarioRunner;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sonde simulate}: predicts response times and throughput, either of a threading-strategy
 * model ({@code sonde simulate middleware ...}) or of a general model in a scenario file
 * ({@code sonde simulate examples/lws.yaml ...}).
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Simulates a performance model and predicts response times and throughput.",
            "  sonde simulate middleware --strategy thread-pool --clients 8 --pool-size 8 --servant-cpu 5ms"
                    + " --distribution exponential --requests-per-client 200 --scheduler linux24 --json",
            "  sonde simulate examples/lws.yaml --scenario A --arrival-rate 10 --json"})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MODEL", description = "'middleware' or a scenario file (.yaml, .yml, .json)")
    String target;

    @Option(names = "--strategy", paramLabel = "NAME", description = "thread-per-client, threaded, thread-per-request or thread-pool")
    String strategy;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Workload workload = new Workload();

    /** Closed clients or open arrivals: one of the two (required for 'middleware'). */
    static final class Workload {
        @Option(names = "--clients", paramLabel = "N", description = "closed clients, one connection each, one outstanding request each")
        Integer clients;

        @Option(names = "--arrivals", paramLabel = "poisson:RATE/s", description = "open Poisson arrivals instead of closed clients")
        String arrivals;
    }

    @Option(names = "--pool-size", paramLabel = "N", description = "dispatcher threads (thread-pool; default: one per client or connection)")
    Integer poolSize;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    ServantDemand servantDemand = new ServantDemand();

    /** The servant either computes or waits: one of the two (required for 'middleware'). */
    static final class ServantDemand {
        @Option(names = "--servant-cpu", paramLabel = "DURATION", description = "mean servant CPU demand, e.g. 5ms")
        String servantCpu;

        @Option(names = "--servant-delay", paramLabel = "DURATION", description = "mean servant delay (sleep, no CPU), e.g. 50ms")
        String servantDelay;
    }

    @Option(names = "--servant-clock", paramLabel = "cpu|wall", description = "how the servant spends --servant-cpu: cpu (that much CPU time) or "
            + "wall (a busy loop until a wall-clock deadline: time preempted counts as served); default: from the profile")
    String servantClock;

    @Option(names = "--distribution", paramLabel = "NAME", description = "exponential or deterministic servant demand (default exponential)")
    String distribution = "exponential";

    @Option(names = "--requests-per-client", paramLabel = "N", description = "requests per closed client (default 200)")
    Integer requestsPerClient;

    @Option(names = "--requests", paramLabel = "N", description = "requests of the open workload (default 15000); scenario files: overrides the arrivals' request count")
    Integer requests;

    @Option(names = "--connections", paramLabel = "N", description = "connections of the open workload (default 1)")
    Integer connections;

    @Option(names = "--cpus", paramLabel = "N", description = "CPUs of the server (default: from the profile)")
    Integer cpus;

    @Option(names = "--scheduler", paramLabel = "NAME", description = "ps, rr or linux24 (default linux24; scenario files: as in the file)")
    String scheduler;

    @Option(names = "--profile", paramLabel = "NAME", description = "calibration profile: built-in name or .properties file (default "
            + CalibrationProfile.DEFAULT + ")")
    String profile = CalibrationProfile.DEFAULT;

    @Option(names = "--seed", paramLabel = "N", description = "random seed (default 1)")
    long seed = 1;

    @Option(names = "--replications", paramLabel = "N", description = "independent replications (default 10)")
    int replications = 10;

    @Option(names = "--json", description = "print one JSON object instead of a table")
    boolean json;

    @Option(names = "--scenario", paramLabel = "NAME", description = "scenario file: which variant to run (e.g. A or B)")
    String scenario;

    @Option(names = "--arrival-rate", paramLabel = "R", description = "scenario file: arrival rate in requests (sessions) per second")
    Double arrivalRate;

    @Override
    public Integer call() {
        SimulationResult result;
        if (target.equals("middleware")) {
            result = runMiddleware();
        } else {
            result = runScenario();
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(json ? result.toJson() : result.toTable());
        out.flush();
        return 0;
    }

    private SimulationResult runMiddleware() {
        String servantCpu = servantDemand.servantCpu;
        String servantDelay = servantDemand.servantDelay;
        Integer clients = workload.clients;
        String arrivals = workload.arrivals;
        if (scenario != null || arrivalRate != null) {
            throw new UsageError("--scenario and --arrival-rate apply to scenario files, not to 'middleware'");
        }
        if (strategy == null) {
            throw new UsageError("--strategy is required (thread-per-client, threaded, thread-per-request or thread-pool)");
        }
        Strategy st;
        try {
            st = Strategy.parse(strategy);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--strategy: " + e.getMessage());
        }
        if ((servantCpu == null) == (servantDelay == null)) {
            throw new UsageError("give exactly one of --servant-cpu DURATION and --servant-delay DURATION");
        }
        double servant = duration(servantCpu != null ? "--servant-cpu" : "--servant-delay",
                servantCpu != null ? servantCpu : servantDelay);
        boolean exponential = switch (distribution.toLowerCase(Locale.ROOT)) {
            case "exponential" -> true;
            case "deterministic" -> false;
            default -> throw new UsageError("--distribution must be exponential or deterministic, got '" + distribution + "'");
        };
        double rate = 0;
        if (arrivals != null) {
            String a = arrivals.strip();
            if (!a.toLowerCase(Locale.ROOT).startsWith("poisson:")) {
                throw new UsageError("--arrivals must look like poisson:RATE/s, e.g. poisson:100/s; got '" + arrivals + "'");
            }
            try {
                rate = Durations.parseRatePerMs(a.substring("poisson:".length()));
            } catch (IllegalArgumentException e) {
                throw new UsageError("--arrivals: " + e.getMessage());
            }
            if (requestsPerClient != null) {
                throw new UsageError("--requests-per-client applies to closed clients; use --requests with --arrivals");
            }
        } else {
            if (clients == null) {
                throw new UsageError("--clients N is required (or --arrivals poisson:RATE/s for an open workload)");
            }
            if (requests != null || connections != null) {
                throw new UsageError("--requests and --connections apply only with --arrivals poisson:RATE/s");
            }
        }
        if (poolSize != null && st != Strategy.THREAD_POOL) {
            throw new UsageError("--pool-size applies only to --strategy thread-pool");
        }
        CalibrationProfile prof;
        try {
            prof = CalibrationProfile.load(profile);
        } catch (IllegalArgumentException e) {
            throw new UserError("--profile: " + e.getMessage());
        }
        int conns = connections == null ? 1 : connections;
        int nClients = clients == null ? 0 : clients;
        int pool = poolSize != null ? poolSize : Math.max(1, arrivals != null ? conns : nClients);
        int cpuCount = cpus != null ? cpus : (int) prof.number("cpus");
        MiddlewareConfig cfg;
        try {
            cfg = new MiddlewareConfig(st, nClients, pool, servant, servantDelay != null, exponential,
                    requestsPerClient == null ? 200 : requestsPerClient, rate, requests == null ? 15000 : requests,
                    conns, cpuCount, scheduler == null ? "linux24" : scheduler.toLowerCase(Locale.ROOT), prof, seed, replications);
            if (servantClock != null) {
                if (servantDelay != null) {
                    throw new UsageError("--servant-clock applies to --servant-cpu, not to --servant-delay");
                }
                cfg = cfg.withServantClock(servantClock.toLowerCase(Locale.ROOT));
            }
            return MiddlewareModel.run(cfg);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    private SimulationResult runScenario() {
        Path file = Path.of(target);
        if (!Files.isRegularFile(file)) {
            throw new UserError("MODEL must be 'middleware' or a scenario file; '" + target + "' is neither");
        }
        for (String[] o : new String[][] {{"--strategy", strategy}, {"--servant-cpu", servantDemand.servantCpu}, {"--servant-clock", servantClock},
                {"--servant-delay", servantDemand.servantDelay}, {"--arrivals", workload.arrivals}}) {
            if (o[1] != null) {
                throw new UsageError(o[0] + " applies to 'middleware', not to scenario files");
            }
        }
        try {
            ScenarioFile sf = ScenarioFile.read(file);
            ScenarioRunner.Options opts = new ScenarioRunner.Options(scenario, arrivalRate, seed, replications,
                    cpus, scheduler == null ? null : scheduler.toLowerCase(Locale.ROOT), requests);
            return ScenarioRunner.run(sf, opts);
        } catch (ScenarioException e) {
            throw new UserError(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    private static double duration(String option, String text) {
        try {
            return Durations.parseMillis(text);
        } catch (IllegalArgumentException e) {
            throw new UsageError(option + ": " + e.getMessage());
        }
    }
}
