package io.sonde.bench.overhead;

import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.framework.Framework;
import io.sonde.bench.overhead.framework.RecordCount;
import io.sonde.bench.overhead.framework.RunContext;
import io.sonde.bench.overhead.framework.RunSetup;
import io.sonde.bench.overhead.kieker.KiekerFramework;
import io.sonde.bench.overhead.otel.OtelFramework;
import io.sonde.bench.overhead.report.ChartReport;
import io.sonde.bench.overhead.report.JsonReport;
import io.sonde.bench.overhead.report.MarkdownReport;
import io.sonde.bench.overhead.sonde.SondeFramework;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * {@code sonde bench overhead}: the MooBench method, Sonde side by side with Kieker and the
 * OpenTelemetry Java agent. Every run is a separate JVM of the benchmark application
 * ({@link io.sonde.bench.overhead.app.BenchmarkApp}); runs of all configurations are interleaved
 * (run 1 of every configuration, then run 2, ...) so that drift of the machine hits them alike.
 * Writes {@code overhead.json}, {@code overhead.md} and {@code overhead.png} to {@code --out}.
 */
public final class OverheadBenchmark {

    /** One framework in one phase; framework null for the shared no-instrumentation baseline. */
    private record Config(Framework framework, Phase phase) {
        String label() {
            return (framework == null ? "baseline" : framework.name()) + " " + phase.label();
        }
    }

    private final OverheadOptions options;
    private final PrintStream log;
    private String loadAtStart = "?";
    private long startedNanos = System.nanoTime();

    OverheadBenchmark(OverheadOptions options, PrintStream log) {
        this.options = options;
        this.log = log;
    }

    /** Entry point; {@code args} are the options after {@code overhead}. Exit status 2 on bad options, 1 on failure. */
    public static void main(String[] args) {
        if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(OverheadOptions.USAGE);
            return;
        }
        OverheadOptions options;
        try {
            options = OverheadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("sonde bench overhead: " + e.getMessage());
            System.err.println(OverheadOptions.USAGE);
            System.exit(2);
            return;
        }
        try {
            List<Result> results = new OverheadBenchmark(options, System.err).run();
            boolean anyFailed = results.stream().anyMatch(r -> !r.errors().isEmpty());
            System.exit(anyFailed ? 1 : 0);
        } catch (IOException e) {
            System.err.println("sonde bench overhead: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Runs every configuration and writes the reports; returns the result lines. */
    List<Result> run() throws IOException {
        System.setProperty("java.awt.headless", "true");
        long started = System.nanoTime();
        startedNanos = started;
        loadAtStart = loadAverage();
        Path out = options.out().toAbsolutePath();
        Files.createDirectories(out);
        Path work = Files.createDirectories(out.resolve("runs"));
        Path appJar = AppJar.write(out.resolve("overhead-app.jar"));
        ArtifactCache cache = new ArtifactCache(options.cache());
        List<Framework> frameworks = new ArrayList<>();
        for (String name : options.frameworks()) {
            Framework f = switch (name) {
                case "sonde" -> new SondeFramework(options.sondeAgent(), out.resolve("agents"));
                case "kieker" -> new KiekerFramework(cache);
                case "otel" -> new OtelFramework(cache);
                default -> throw new IllegalStateException(name);
            };
            boolean needsAgent = options.phases().stream().anyMatch(p -> p != Phase.NO_INSTRUMENTATION);
            if (needsAgent) {
                log.println("overhead: preparing " + name + " " + f.version());
                f.prepare();
            }
            frameworks.add(f);
        }
        List<Result> results = new ArrayList<>();
        for (Path jdk : options.jdks()) {
            String jdkVersion = jdkVersion(jdk);
            for (int threads : options.threads()) {
                results.addAll(runBlock(frameworks, jdk, jdkVersion, threads, appJar, work));
                writeReports(out, results, started, false); // keep partial results if a later block fails
            }
        }
        writeReports(out, results, started, true);
        return results;
    }

    private void writeReports(Path out, List<Result> results, long started, boolean last) throws IOException {
        double seconds = (System.nanoTime() - started) / 1e9;
        JsonReport.write(out.resolve("overhead.json"), results);
        String machine = String.format(Locale.ROOT, "Machine: %d cores, %s %s; load average (1/5/15 min) at start %s, at end %s.",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"), System.getProperty("os.arch"),
                loadAtStart, loadAverage());
        MarkdownReport.write(out.resolve("overhead.md"), results, options, seconds, machine);
        if (last) {
            try {
                ChartReport.write(out.resolve("overhead.png"), results);
            } catch (RuntimeException | LinkageError e) {
                log.println("overhead: chart not written: " + e);
            }
            log.printf(Locale.ROOT, "overhead: done in %.0f s; results in %s%n", seconds, out);
        }
    }

    /** All runs of one JDK and thread count, interleaved, then summarised. */
    private List<Result> runBlock(List<Framework> frameworks, Path jdk, String jdkVersion, int threads, Path appJar,
            Path work) throws IOException {
        List<Config> configs = new ArrayList<>();
        if (options.phases().contains(Phase.NO_INSTRUMENTATION)) {
            configs.add(new Config(null, Phase.NO_INSTRUMENTATION));
        }
        Map<String, String> unsupported = new LinkedHashMap<>();
        for (Framework f : frameworks) {
            for (Phase p : options.phases()) {
                if (p == Phase.NO_INSTRUMENTATION) {
                    continue;
                }
                String why = f.unsupported(p);
                if (why == null) {
                    configs.add(new Config(f, p));
                } else {
                    unsupported.put(f.name() + "/" + p.label(), why);
                }
            }
        }
        Map<Config, Samples> samples = new LinkedHashMap<>();
        for (Config c : configs) {
            samples.put(c, new Samples());
        }
        Path java = jdk.resolve("bin").resolve("java");
        for (int run = 1; run <= options.runs(); run++) {
            for (Config c : configs) {
                Samples s = samples.get(c);
                String tag = String.format(Locale.ROOT, "[jdk %s | %d thread%s | run %d/%d] %s", jdkVersion, threads,
                        threads == 1 ? "" : "s", run, options.runs(), c.label());
                Path runDir = Files.createDirectories(work.resolve(dirName(jdkVersion, threads, run, c)));
                RunContext context = new RunContext(runDir, threads, options.calls(), options.depth());
                try {
                    runOnce(c, context, java, appJar, s, tag);
                } catch (IOException | RuntimeException e) {
                    String message = "run " + run + ": " + e.getMessage();
                    s.errors.add(message);
                    log.println(tag + ": FAILED " + e.getMessage());
                }
            }
            log.printf(Locale.ROOT, "overhead: round done, %.0f s since start, load %s%n",
                    (System.nanoTime() - startedNanos) / 1e9, loadAverage());
        }
        List<Result> results = summarise(frameworks, configs, samples, unsupported, jdkVersion, threads);
        for (Samples s : samples.values()) {
            s.release();
        }
        return results;
    }

    private void runOnce(Config c, RunContext context, Path java, Path appJar, Samples s, String tag) throws IOException {
        RunSetup setup = c.framework() == null
                ? RunSetup.of(List.of(), Map.of(), RecordCount.of(0))
                : c.framework().setup(c.phase(), context);
        try (setup) {
            JvmRun.Outcome outcome = JvmRun.run(java, setup, appJar, context.runDir(),
                    context.threads(), context.calls(), context.depth(), options.methodTimeNanos(),
                    options.runTimeoutSeconds());
            RecordCount count = setup.countRecords();
            s.addTimings(outcome.timings());
            s.startupMicros.add(outcome.startupMicros());
            s.heapBytes.add(outcome.heapUsedBytes());
            s.threadCounts.add(outcome.threadNames().size());
            for (String raw : outcome.threadNames()) {
                // per-run details (ports, counters) would make every run's threads look new
                String name = raw.replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:PORT");
                if (!s.threadNames.contains(name)) {
                    s.threadNames.add(name);
                }
            }
            if (count.written() == null) {
                s.recordsUnknown = true;
            } else {
                s.recordsWritten += count.written();
            }
            if (count.reason() != null && !s.countNotes.contains(count.reason())) {
                s.countNotes.add(count.reason());
            }
            s.runsDone++;
            Stats one = Stats.of(outcome.timings().clone());
            String records = count.written() == null ? "" : ", " + count.written() + "/"
                    + (isWritingPhase(c.phase()) ? context.expectedExecutions() : 0) + " records";
            log.printf(Locale.ROOT, "%s: mean %.3f us, median %.3f us, start-up %d ms%s%n", tag, one.meanUs(),
                    one.medianUs(), outcome.startupMicros() / 1000, records);
        }
    }

    private static boolean isWritingPhase(Phase p) {
        return p == Phase.DISCARD || p == Phase.FILE || p == Phase.TCP;
    }

    private List<Result> summarise(List<Framework> frameworks, List<Config> configs, Map<Config, Samples> samples,
            Map<String, String> unsupported, String jdk, int threads) {
        Samples base = null;
        Stats baseStats = null;
        for (Config c : configs) {
            if (c.framework() == null && samples.get(c).runsDone > 0) {
                base = samples.get(c);
                baseStats = Stats.of(base.timings());
            }
        }
        double baseHeap = base == null ? Double.NaN : mean(base.heapBytes) / (1024.0 * 1024.0);
        Set<String> baseThreads = base == null ? Set.of() : new LinkedHashSet<>(base.threadNames);
        List<Result> results = new ArrayList<>();
        for (Framework f : frameworks) {
            for (Phase p : Phase.values()) {
                if (!options.phases().contains(p)) {
                    continue;
                }
                Config config = null;
                for (Config c : configs) {
                    if (c.phase() == p && (p == Phase.NO_INSTRUMENTATION ? c.framework() == null : c.framework() == f)) {
                        config = c;
                    }
                }
                String why = unsupported.get(f.name() + "/" + p.label());
                if (config == null) {
                    results.add(new Result(f.name(), f.version(), jdk, p.label(), threads, options.calls(), 0,
                            options.depth(), null, null, null, null, null, null, null, null,
                            why == null ? "not run" : why, null, null, null, null, List.of(), List.of()));
                    continue;
                }
                Samples s = samples.get(config);
                long perRun = (long) threads * options.calls() * options.depth();
                Long expected = isWritingPhase(p) ? perRun * s.runsDone : 0L;
                if (s.runsDone == 0) {
                    results.add(new Result(f.name(), f.version(), jdk, p.label(), threads, options.calls(), 0,
                            options.depth(), null, null, null, null, null, null, expected, null, "every run failed", null,
                            null, null, null, List.of(), List.copyOf(s.errors)));
                    continue;
                }
                Stats st = p == Phase.NO_INSTRUMENTATION ? baseStats : Stats.of(s.timings());
                Double overhead = baseStats == null ? null : (st.meanUs() - baseStats.meanUs()) * 1000.0 / options.depth();
                Double overheadMedian = baseStats == null ? null
                        : (st.medianUs() - baseStats.medianUs()) * 1000.0 / options.depth();
                double heap = mean(s.heapBytes) / (1024.0 * 1024.0);
                List<String> agentThreads = new ArrayList<>();
                for (String name : s.threadNames) {
                    if (!baseThreads.contains(name) && !name.startsWith("bench-worker-")) {
                        agentThreads.add(name);
                    }
                }
                String reason = s.countNotes.isEmpty() ? null : String.join("; ", s.countNotes);
                if (p == Phase.NO_INSTRUMENTATION) {
                    reason = "no agent; the same baseline runs are reported for every framework";
                }
                Long written = s.recordsUnknown ? null : s.recordsWritten;
                results.add(new Result(f.name(), f.version(), jdk, p.label(), threads, options.calls(), s.runsDone,
                        options.depth(), st.meanUs(), st.medianUs(), st.minUs(), st.maxUs(), overhead, overheadMedian,
                        expected,
                        written, reason, mean(s.startupMicros) / 1000.0, heap,
                        Double.isNaN(baseHeap) ? null : heap - baseHeap,
                        s.threadCounts.stream().mapToInt(Integer::intValue).max().orElse(0),
                        agentThreads, List.copyOf(s.errors)));
            }
        }
        return results;
    }

    private static double mean(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).average().orElse(Double.NaN);
    }

    private static String dirName(String jdk, int threads, int run, Config c) {
        String fw = c.framework() == null ? "baseline" : c.framework().name();
        return ("jdk" + jdk + "-t" + threads + "-r" + run + "-" + fw + "-" + c.phase().label()).replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The load average from /proc/loadavg (Linux), to show how busy the machine was; "?" elsewhere. */
    public static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** The JDK's version from its {@code release} file (e.g. {@code 17.0.15}), or the directory name. */
    public static String jdkVersion(Path home) {
        Path release = home.resolve("release");
        if (Files.isRegularFile(release)) {
            try {
                Properties p = new Properties();
                p.load(Files.newBufferedReader(release, StandardCharsets.UTF_8));
                String v = p.getProperty("JAVA_VERSION");
                if (v != null) {
                    return v.replace("\"", "");
                }
            } catch (IOException e) {
                // fall through to the directory name
            }
        }
        if (home.toAbsolutePath().normalize().equals(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize())) {
            return System.getProperty("java.version");
        }
        return home.getFileName().toString();
    }
}
