package io.sonde.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sonde bench sim}: the same M/M/1 queue (arrival rate 0.8 per ms, exponential service
 * with mean 1 ms, rho = 0.8) simulated by Sonde and by SimPy 4.1.2 in one invocation; reports
 * events per second and customers per second of both and their ratios, and each run's mean
 * waiting time beside the closed form rho / (mu - lambda) = 4 ms as a sanity check.
 *
 * <p>Options: {@code --json FILE} writes the JSON report there (it is always printed too);
 * {@code --quick} runs short; {@code --python CMD} picks the Python interpreter (default
 * {@code python3}); {@code --simpy-script FILE} overrides where the SimPy side is found.
 */
public final class SimBenchmark {
    private static final double ARRIVALS_PER_MS = 0.8;
    private static final double SERVICE_MS = 1.0;

    private SimBenchmark() {}

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        Path json = null;
        boolean quick = false;
        String python = "python3";
        Path script = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json":
                    json = Paths.get(value(args, ++i, "--json"));
                    break;
                case "--quick":
                    quick = true;
                    break;
                case "--python":
                    python = value(args, ++i, "--python");
                    break;
                case "--simpy-script":
                    script = Paths.get(value(args, ++i, "--simpy-script"));
                    break;
                default:
                    fail("unknown option '" + args[i] + "' (known: --json FILE, --quick, --python CMD, --simpy-script FILE)");
            }
        }
        long sondeCustomers = quick ? 300_000 : 3_000_000;
        long simpyCustomers = quick ? 30_000 : 300_000;
        int rounds = quick ? 2 : 5;

        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode out = mapper.createObjectNode();
        out.put("benchmark", "sim-mm1");
        out.put("quick", quick);
        out.put("arrival_rate_per_ms", ARRIVALS_PER_MS);
        out.put("service_mean_ms", SERVICE_MS);
        out.put("exact_mean_wait_ms", ARRIVALS_PER_MS * SERVICE_MS * SERVICE_MS / (1 - ARRIVALS_PER_MS * SERVICE_MS));
        out.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        out.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        out.put("available_processors", Runtime.getRuntime().availableProcessors());

        // Sonde: JIT warm-up, then the fastest of several rounds (the machine is shared and noisy).
        System.err.println("sim bench: Sonde, " + sondeCustomers + " customers x " + rounds + " rounds per model");
        Mm1Models.blocks(99, sondeCustomers / 10, ARRIVALS_PER_MS, SERVICE_MS);
        Mm1Models.events(99, sondeCustomers / 10, ARRIVALS_PER_MS, SERVICE_MS);
        Mm1Models.threadPool(99, sondeCustomers / 20);
        Mm1Models.Run blocks = null;
        Mm1Models.Run events = null;
        Mm1Models.Run pool = null;
        for (int r = 0; r < rounds; r++) {
            Mm1Models.Run b = Mm1Models.blocks(1 + r, sondeCustomers, ARRIVALS_PER_MS, SERVICE_MS);
            Mm1Models.Run e = Mm1Models.events(1 + r, sondeCustomers, ARRIVALS_PER_MS, SERVICE_MS);
            Mm1Models.Run p = Mm1Models.threadPool(1 + r, sondeCustomers / 4);
            blocks = blocks == null || b.seconds() < blocks.seconds() ? b : blocks;
            events = events == null || e.seconds() < events.seconds() ? e : events;
            pool = pool == null || p.seconds() < pool.seconds() ? p : pool;
        }
        out.set("sonde_blocks", run(mapper, blocks,
                "Poisson arrivals -> FIFO request queue -> server thread (get, CPU demand, reply) on a 1-CPU machine"));
        out.set("sonde_events", run(mapper, events, "arrival and departure events directly on the event list"));
        ObjectNode tp = run(mapper, pool, "not M/M/1: receiver + 10 dispatcher threads (thread pool) on one CPU under "
                + "the Linux 2.4 scheduler, Poisson 100/s, exponential demands 0.9 + 5.6 ms; Sonde only");
        tp.remove("mean_wait_ms");
        tp.put("mean_pool_wait_ms", pool.meanWaitMs());
        out.set("sonde_thread_pool", tp);

        System.err.println("sim bench: SimPy, " + simpyCustomers + " customers (first run installs SimPy into a venv)");
        JsonNode simpy;
        try {
            simpy = runSimpy(mapper, python, script == null ? findScript() : script, simpyCustomers, quick ? 1 : 3);
        } catch (IOException | IllegalStateException e) {
            simpy = null;
            out.putObject("simpy").put("error", e.getMessage());
        }
        if (simpy != null) {
            ObjectNode s = (ObjectNode) simpy;
            s.put("description", "process per customer, simpy.Resource(capacity=1), env.timeout for arrivals and service");
            out.set("simpy", s);
            double simpyEps = s.path("events_per_s").asDouble();
            double simpyCps = s.path("customers_per_s").asDouble();
            out.put("ratio_events_per_s_blocks_vs_simpy", blocks.eventsPerSecond() / simpyEps);
            out.put("ratio_customers_per_s_blocks_vs_simpy", blocks.customersPerSecond() / simpyCps);
            out.put("ratio_events_per_s_events_vs_simpy", events.eventsPerSecond() / simpyEps);
            out.put("ratio_customers_per_s_events_vs_simpy", events.customersPerSecond() / simpyCps);
        } else {
            out.putNull("ratio_events_per_s_blocks_vs_simpy");
            out.putNull("ratio_customers_per_s_blocks_vs_simpy");
        }
        String text = mapper.writeValueAsString(out);
        System.out.println(text);
        if (json != null) {
            Path parent = json.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(json, text + "\n", StandardCharsets.UTF_8);
            System.err.println("sim bench: wrote " + json);
        }
        System.err.println(summary(blocks, events, pool, simpy));
        if (simpy == null) {
            System.err.println("sim bench: the SimPy side failed: " + out.path("simpy").path("error").asText());
            System.exit(1);
        }
    }

    private static ObjectNode run(ObjectMapper mapper, Mm1Models.Run r, String description) {
        ObjectNode n = mapper.createObjectNode();
        n.put("engine", "sonde");
        n.put("model", r.model());
        n.put("description", description);
        n.put("customers", r.customers());
        n.put("events", r.events());
        n.put("seconds", r.seconds());
        n.put("events_per_s", r.eventsPerSecond());
        n.put("customers_per_s", r.customersPerSecond());
        n.put("mean_wait_ms", r.meanWaitMs());
        return n;
    }

    private static String summary(Mm1Models.Run blocks, Mm1Models.Run events, Mm1Models.Run pool, JsonNode simpy) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-18s %14s %16s %12s%n", "engine", "events/s", "customers/s", "mean wait"));
        for (Mm1Models.Run r : List.of(blocks, events, pool)) {
            b.append(String.format(Locale.ROOT, "%-18s %14.0f %16.0f %9.3f ms%n", "sonde-" + r.model(),
                    r.eventsPerSecond(), r.customersPerSecond(), r.meanWaitMs()));
        }
        if (simpy != null) {
            b.append(String.format(Locale.ROOT, "%-18s %14.0f %16.0f %9.3f ms%n", "simpy",
                    simpy.path("events_per_s").asDouble(), simpy.path("customers_per_s").asDouble(),
                    simpy.path("mean_wait_ms").asDouble()));
        }
        return b.toString();
    }

    /** The SimPy script: in the source tree, found from the working directory or the jar. */
    private static Path findScript() {
        List<Path> candidates = new ArrayList<>();
        candidates.add(Paths.get("sonde-bench", "src", "main", "python", "simpy_mm1.py"));
        candidates.add(Paths.get("src", "main", "python", "simpy_mm1.py"));
        try {
            Path jar = Paths.get(SimBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // .../sonde-bench/target/x.jar or .../sonde-bench/target/classes
            Path module = jar.getParent() == null ? null : jar.getParent().getParent();
            if (module != null) {
                candidates.add(module.resolve(Paths.get("src", "main", "python", "simpy_mm1.py")));
            }
        } catch (Exception e) {
            // no code source location: rely on the working-directory candidates
        }
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find simpy_mm1.py (looked at " + candidates
                + "); run from the repository root or pass --simpy-script FILE");
    }

    private static JsonNode runSimpy(ObjectMapper mapper, String python, Path script, long customers, int repeat)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(python, script.toString(), "--customers", Long.toString(customers),
                "--arrival-rate", Double.toString(ARRIVALS_PER_MS), "--service-mean", Double.toString(SERVICE_MS),
                "--repeat", Integer.toString(repeat));
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start '" + python + "': " + e.getMessage() + " (pass --python CMD)", e);
        }
        byte[] stdout;
        try (InputStream in = p.getInputStream()) {
            stdout = in.readAllBytes();
        }
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("SimPy run did not finish within 30 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("SimPy run failed with exit status " + p.exitValue()
                    + " (see its messages above)");
        }
        String text = new String(stdout, StandardCharsets.UTF_8).trim();
        try {
            return mapper.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("SimPy run printed no JSON object: '" + text + "'");
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("sonde bench sim: " + message);
        System.exit(2);
    }
}
