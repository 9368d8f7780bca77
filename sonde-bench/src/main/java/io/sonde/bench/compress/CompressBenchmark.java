package io.sonde.bench.compress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.bench.common.Folders;
import io.sonde.bench.common.OptionArgs;
import io.sonde.bench.compress.app.CompressApp;
import io.sonde.bench.overhead.AppJar;
import io.sonde.bench.overhead.OverheadBenchmark;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.sonde.SondeFramework;
import io.sonde.bench.overhead.sonde.SondeRecordCounter;
import io.sonde.bench.real.ChildRun;
import io.sonde.bench.real.RealWorkload;
import io.sonde.bench.real.app.RealApp;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code sonde bench compress}: what {@code compress=lz4} costs and saves. Two workloads — the shop
 * of {@code sonde demo} through the API, and the H2 workload of {@code sonde bench real} under the
 * agent with {@code include=org.h2.*} — each run with {@code compress=off} and {@code compress=lz4}
 * in child JVMs, interleaved, with the binary file writer at its defaults. Per configuration: bytes
 * written and their ratio to {@code off}, the writer thread's CPU time (per MB written and per
 * execution), executions recorded and per second of the workload, drops. Every run's output is read
 * back through the reader (which expands COMPRESSED frames), so an unreadable stream is an error.
 * See docs/benchmarks.md, "Frame compression".
 */
public final class CompressBenchmark {

    static final String USAGE = String.join("\n",
            "usage: sonde bench compress [options]",
            "  --quick               CI run: 300 demo orders, 100 H2 operations, 1 run",
            "  --runs N              JVM runs per configuration (default 3)",
            "  --workloads LIST      demo,h2 (default both)",
            "  --json FILE           write the results as a JSON array (default OUT/compress.json)",
            "  --out DIR             output directory (default target/compress)",
            "  --jdk PATH            JDK home the child JVMs run on (default: the running JDK)",
            "  --sonde-agent JAR     Sonde agent jar, for h2 (default sonde-agent/target/sonde-agent.jar)",
            "  --sonde-cli JAR       the CLI jar holding the demo, for demo (default sonde-cli/target/sonde.jar)",
            "  --demo-orders N       orders of the demo (default 4000)",
            "  --h2-ops N            H2 operations (default 2000)",
            "  --cache DIR           download cache (default ~/.cache/sonde/bench)",
            "  --run-timeout S       kill a child JVM after S seconds (default 600)");

    static final List<String> MODES = List.of("off", "lz4");
    private static final List<String> VALUE_OPTIONS = List.of("--runs", "--workloads", "--json", "--out", "--jdk", "--sonde-agent",
            "--sonde-cli", "--demo-orders", "--h2-ops", "--cache", "--run-timeout");
    private static final int DEMO_THREADS = 4;

    /** One run's figures; null where not measured. */
    record Run(double workloadS, long bytes, Long executions, long dropped, double writerCpuS, String error) {}

    private CompressBenchmark() {}

    /** Runs the benchmark with the arguments after {@code compress}; exit status 1 when a run failed. */
    public static void main(String[] args) throws Exception {
        if (!execute(args)) {
            System.exit(1);
        }
    }

    /** As {@link #main}, returning whether every run succeeded instead of exiting. */
    public static boolean execute(String[] args) throws IOException, InterruptedException {
        boolean quick = false;
        int runs = 3;
        boolean runsGiven = false;
        List<String> workloads = List.of("demo", "h2");
        Path json = null;
        Path out = Path.of("target", "compress");
        Path jdk = Path.of(System.getProperty("java.home"));
        Path agentJar = null;
        Path cliJar = null;
        Long demoOrders = null;
        Long h2Ops = null;
        Path cacheDir = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        int timeout = 600;
        OptionArgs arguments = new OptionArgs(args);
        try {
            while (arguments.next()) {
                String option = arguments.option();
                if (option.equals("--quick")) {
                    quick = true;
                    continue;
                }
                if (!VALUE_OPTIONS.contains(option)) {
                    throw new IllegalArgumentException("unknown option " + option);
                }
                String value = arguments.value();
                switch (option) {
                    case "--runs" -> {
                        runs = (int) OptionArgs.parseLong(option, value, 1);
                        runsGiven = true;
                    }
                    case "--workloads" -> workloads = workloads(value);
                    case "--json" -> json = Path.of(value);
                    case "--out" -> out = Path.of(value);
                    case "--jdk" -> jdk = OptionArgs.checkJdk(value);
                    case "--sonde-agent" -> agentJar = Path.of(value);
                    case "--sonde-cli" -> cliJar = Path.of(value);
                    case "--demo-orders" -> demoOrders = OptionArgs.parseLong(option, value, 1);
                    case "--h2-ops" -> h2Ops = OptionArgs.parseLong(option, value, 1);
                    case "--cache" -> cacheDir = Path.of(value);
                    case "--run-timeout" -> timeout = (int) OptionArgs.parseLong(option, value, 1);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "\n" + USAGE);
        }
        if (quick && !runsGiven) {
            runs = 1;
        }
        long orders = demoOrders != null ? demoOrders : quick ? 300 : 4000;
        long ops = h2Ops != null ? h2Ops : quick ? 100 : 2000;
        out = out.toAbsolutePath();
        Files.createDirectories(out);
        Path java = jdk.resolve("bin").resolve("java");
        Path appJar = AppJar.write(out.resolve("compress-app.jar"), CompressApp.class);
        List<Path> demoClassPath = null;
        if (workloads.contains("demo")) {
            demoClassPath = List.of(appJar, cliJar(cliJar));
        }
        List<Path> h2ClassPath = null;
        Path agent = null;
        if (workloads.contains("h2")) {
            SondeFramework sonde = new SondeFramework(agentJar, out.resolve("agent"));
            sonde.prepare();
            agent = sonde.agentJar();
            h2ClassPath = new ArrayList<>(List.of(appJar, AppJar.write(out.resolve("real-app.jar"), RealApp.class)));
            h2ClassPath.addAll(RealWorkload.H2.classPath(new ArtifactCache(cacheDir.toAbsolutePath())));
        }

        Map<String, List<Run>> measured = new LinkedHashMap<>();
        boolean ok = true;
        // interleaved, so that drift of a shared machine hits both modes alike
        for (int run = 1; run <= runs; run++) {
            for (String workload : workloads) {
                for (String mode : MODES) {
                    Path dir = out.resolve(workload).resolve(mode).resolve("run-" + run);
                    Run r = workload.equals("demo")
                            ? runDemo(java, demoClassPath, mode, orders, dir, timeout)
                            : runH2(java, h2ClassPath, agent, mode, ops, dir, timeout);
                    measured.computeIfAbsent(workload + " " + mode, k -> new ArrayList<>()).add(r);
                    ok &= r.error() == null;
                    System.err.printf(Locale.ROOT, "bench compress: %s, compress=%s, run %d of %d: %s%n", workload, mode, run,
                            runs, r);
                }
            }
        }

        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        StringBuilder table = new StringBuilder("| workload | compress | runs | workload s | executions | executions/s | bytes"
                + " | ratio | writer CPU s | writer CPU ms/MB | writer CPU ns/execution | dropped |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String workload : workloads) {
            Double offBytes = median(measured.get(workload + " off"), r -> (double) r.bytes());
            for (String mode : MODES) {
                List<Run> rs = measured.getOrDefault(workload + " " + mode, List.of());
                Double wall = median(rs, Run::workloadS);
                Double bytes = median(rs, r -> (double) r.bytes());
                Double executions = median(rs, r -> r.executions() == null ? null : r.executions().doubleValue());
                Double cpu = median(rs, r -> r.writerCpuS() < 0 ? null : r.writerCpuS());
                Double perSecond = ratio(executions, wall);
                Double ratio = ratio(bytes, offBytes);
                Double cpuPerMb = cpu == null || bytes == null || bytes == 0 ? null : cpu * 1e3 / (bytes / 1e6);
                Double cpuPerExecution = cpu == null || executions == null || executions == 0 ? null : cpu * 1e9 / executions;
                long dropped = rs.stream().mapToLong(Run::dropped).max().orElse(0);
                ObjectNode o = array.addObject();
                o.put("workload", workload);
                o.put("compress", mode);
                o.put("runs", rs.size());
                put(o, "workload_s", wall);
                put(o, "executions", executions);
                put(o, "executions_per_s", perSecond);
                put(o, "bytes", bytes);
                put(o, "ratio", ratio);
                put(o, "writer_cpu_s", cpu);
                put(o, "writer_cpu_ms_per_mb", cpuPerMb);
                put(o, "writer_cpu_ns_per_execution", cpuPerExecution);
                o.put("dropped", dropped);
                ArrayNode errors = o.putArray("errors");
                rs.stream().map(Run::error).filter(e -> e != null).forEach(errors::add);
                table.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d |%n", workload,
                        mode, rs.size(), fmt(wall, 3), fmt(executions, 0), fmt(perSecond, 0), fmt(bytes, 0), fmt(ratio, 3),
                        fmt(cpu, 3), fmt(cpuPerMb, 2), fmt(cpuPerExecution, 1), dropped));
            }
        }
        Path file = json != null ? json.toAbsolutePath() : out.resolve("compress.json");
        Files.createDirectories(file.getParent());
        mapper.writeValue(file.toFile(), array);
        System.out.print(table);
        System.out.println("load average: " + OverheadBenchmark.loadAverage() + "; results: " + file);
        return ok;
    }

    private static List<String> workloads(String value) {
        List<String> list = new ArrayList<>();
        for (String w : value.split(",")) {
            String t = w.trim().toLowerCase(Locale.ROOT);
            if (!t.equals("demo") && !t.equals("h2")) {
                throw new IllegalArgumentException("option --workloads: unknown workload '" + w + "' (expected demo or h2)");
            }
            if (!list.contains(t)) {
                list.add(t);
            }
        }
        return list;
    }

    /** Where the CLI jar is looked for when not given: beside each place the agent jar is looked for. */
    static List<Path> cliJarCandidates() {
        List<Path> candidates = new ArrayList<>();
        for (Path agent : SondeFramework.candidates()) {
            // .../sonde-agent/target/sonde-agent.jar -> .../sonde-cli/target/sonde.jar
            Path root = agent.getParent().getParent().getParent();
            candidates.add((root == null ? Path.of("sonde-cli") : root.resolve("sonde-cli")).resolve("target").resolve("sonde.jar"));
        }
        return candidates;
    }

    /** The CLI jar (it holds the demo's shop): given, or next to the build. */
    private static Path cliJar(Path given) throws IOException {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new IOException("option --sonde-cli: " + given + " does not exist");
            }
            return given.toAbsolutePath();
        }
        List<Path> candidates = cliJarCandidates();
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p.toAbsolutePath();
            }
        }
        throw new IOException("the CLI jar with the demo was not found (looked at " + candidates
                + "); build it with `mvn -pl sonde-cli -am package -DskipTests` or pass --sonde-cli JAR");
    }

    private static Run runDemo(Path java, List<Path> classPath, String mode, long orders, Path dir, int timeout)
            throws IOException, InterruptedException {
        Path output = dir.resolve("output");
        Path report = dir.resolve("report.txt");
        List<String> command = List.of("demo", Long.toString(orders), Integer.toString(DEMO_THREADS), output.toString(), mode,
                report.toString());
        return measure(java, List.of(), classPath, command, dir, output, report, timeout);
    }

    private static Run runH2(Path java, List<Path> classPath, Path agent, String mode, long ops, Path dir, int timeout)
            throws IOException, InterruptedException {
        Path output = dir.resolve("output");
        Path report = dir.resolve("report.txt");
        String options = "include=" + RealWorkload.H2.sondeInclude() + ",writer=file,file.dir=" + output + ",compress=" + mode;
        List<String> command = List.of("h2", report.toString(), "--workload", "h2", "--ops", Long.toString(ops), "--report",
                report.toString());
        return measure(java, List.of("-javaagent:" + agent + "=" + options), classPath, command, dir, output, report, timeout);
    }

    /** Runs one child JVM, then reads its output back and its report; the output is deleted afterwards. */
    private static Run measure(Path java, List<String> jvmOptions, List<Path> classPath, List<String> arguments, Path dir,
            Path output, Path report, int timeout) throws IOException, InterruptedException {
        Folders.deleteTree(dir);
        Files.createDirectories(output);
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx1g"));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()));
        command.add(CompressApp.class.getName());
        command.addAll(arguments);
        Files.writeString(dir.resolve("command.txt"), String.join(" ", command) + "\n");
        Path log = dir.resolve("jvm.log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return failed("killed after " + timeout + " s (log: " + log + ")");
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(report)) {
            return failed("exit status " + p.exitValue() + ", no report (log: " + log + ")");
        }
        Map<String, String> r = new LinkedHashMap<>();
        for (String line : Files.readAllLines(report, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                r.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        long bytes = ChildRun.sizeOf(output);
        SondeRecordCounter.Tally tally = SondeRecordCounter.tally(output, "");
        Folders.deleteTree(output); // can be hundreds of MB; its size is what is kept
        // drops (and the GAP records marking them) are a figure of the run at default settings, not a
        // failure; anything else the reader says (a read error, an incomplete stream) is
        List<String> problems = tally.remarks().stream()
                .filter(m -> !m.startsWith("trailer reports ") && !m.endsWith(" gap records")).toList();
        String error = null;
        if (tally.executions() == null || !problems.isEmpty()) {
            error = "output: " + String.join("; ", problems);
        } else if (!r.getOrDefault("failures", "0").equals("0")) {
            error = "wrong answers: " + r.get("failures") + " (report: " + report + ")";
        }
        return new Run(Long.parseLong(r.getOrDefault("workload_wall_ns", "0")) / 1e9, bytes, tally.executions(), tally.dropped(),
                Long.parseLong(r.getOrDefault("writer_cpu_ns", "-1")) / 1e9, error);
    }

    private static Run failed(String why) {
        return new Run(0, 0, null, 0, -1, why);
    }

    private static Double median(List<Run> runs, java.util.function.Function<Run, Double> f) {
        if (runs == null) {
            return null;
        }
        List<Double> v = runs.stream().filter(r -> r.error() == null).map(f).filter(x -> x != null).sorted().toList();
        if (v.isEmpty()) {
            return null;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    private static void put(ObjectNode o, String key, Double v) {
        if (v == null) {
            o.putNull(key);
        } else {
            o.put(key, Math.round(v * 10_000) / 10_000.0);
        }
    }

    private static String fmt(Double v, int decimals) {
        return v == null ? "–" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }
}
