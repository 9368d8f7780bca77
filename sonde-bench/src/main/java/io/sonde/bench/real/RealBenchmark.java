package io.sonde.bench.real;

import io.sonde.bench.overhead.AppJar;
import io.sonde.bench.overhead.OverheadBenchmark;
import io.sonde.bench.overhead.kieker.KiekerFiles;
import io.sonde.bench.overhead.kieker.KiekerFramework;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.sonde.SondeFramework;
import io.sonde.bench.overhead.sonde.SondeRecordCounter;
import io.sonde.bench.real.app.RealApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code sonde bench real}: real libraries (H2, Javalin on Jetty) fetched from Maven Central, each
 * run on a bounded workload without an agent, under Sonde and under Kieker with the same include
 * patterns, each in a child JVM of its own. Per configuration it reports start-up and weaving,
 * wall and CPU time of the workload, executions recorded, bytes written, drops, and whether the
 * results were the same as without an agent. See docs/benchmarks.md.
 */
public final class RealBenchmark {

    private static final Pattern AGENT_WEAVE_ATTRIBUTE =
            Pattern.compile("mbean\\.(\\w*[Ww]eav\\w*?)(Nanos|Micros|Millis|Seconds)");

    private final RealOptions options;
    /** The output folder, absolute: the child JVMs run in their own folders. */
    private final Path out;
    private final ArtifactCache cache;
    private final Path java;
    private final String jdkVersion;
    private Path appJar;
    private Path sondeAgent;
    private Path kiekerAgent;
    private String sondeVersion;

    private RealBenchmark(RealOptions options) throws IOException {
        this.options = options;
        this.out = options.out().toAbsolutePath();
        this.cache = new ArtifactCache(options.cache().toAbsolutePath());
        this.java = options.jdk().resolve("bin").resolve("java");
        this.jdkVersion = OverheadBenchmark.jdkVersion(options.jdk());
    }

    /**
     * Runs the benchmark with the arguments that follow {@code real}; exit status 1 when a
     * configuration was not correct (wrong results, a failed or cut run) or a run failed (e.g. the
     * agent rejected {@code --agent-options}), 2 on bad options.
     */
    public static void main(String[] args) throws Exception {
        if (!execute(args)) {
            System.exit(1);
        }
    }

    /** As {@link #main}, returning whether every configuration was correct and every run valid instead of exiting. */
    public static boolean execute(String[] args) throws IOException {
        RealOptions options;
        try {
            options = RealOptions.parse(args);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "\n" + RealOptions.USAGE);
        }
        List<RealResult> results = run(options);
        RealReport.writeJson(options.jsonFile(), results);
        System.out.println(RealReport.table(results));
        System.out.println("results: " + options.jsonFile().toAbsolutePath());
        return results.stream().allMatch(r -> r.correct() && r.failedRuns() == 0);
    }

    /** Runs every configuration of {@code options} and returns one result per configuration. */
    public static List<RealResult> run(RealOptions options) throws IOException {
        RealBenchmark bench = new RealBenchmark(options);
        bench.prepare();
        List<RealResult> results = new ArrayList<>();
        for (RealWorkload workload : options.workloads()) {
            results.addAll(bench.runWorkload(workload));
        }
        return results;
    }

    private void prepare() throws IOException {
        Files.createDirectories(out);
        appJar = AppJar.write(out.resolve("real-app.jar"), RealApp.class);
        if (options.frameworks().contains("sonde")) {
            SondeFramework sonde = new SondeFramework(options.sondeAgent(), out.resolve("agent"));
            sonde.prepare();
            sondeAgent = sonde.agentJar();
            sondeVersion = sonde.version();
        }
        if (options.frameworks().contains("kieker")) {
            kiekerAgent = cache.jar("net.kieker-monitoring", "kieker", KiekerFramework.VERSION, "bytebuddy");
        }
    }

    private List<RealResult> runWorkload(RealWorkload workload) throws IOException {
        List<Path> classPath = new ArrayList<>();
        classPath.add(appJar);
        classPath.addAll(workload.classPath(cache));
        Map<String, List<RunMeasure>> measured = new LinkedHashMap<>();
        // the budget's state file of this workload ({@code --budget-state}), or null
        Path budgetState = null;
        if (options.budgetState() && options.frameworks().contains("sonde")) {
            // learned once, unmeasured; each measured run starts from it (and may add to it)
            budgetState = out.resolve(workload.label()).resolve("budget.state");
            Files.deleteIfExists(budgetState);
            RunMeasure learning = runOnce("sonde", workload, classPath, out.resolve(workload.label()).resolve("sonde").resolve("learning"),
                    budgetState);
            System.err.printf(Locale.ROOT, "bench real: %s, sonde, learning run for budget.state (not measured): workload %s s%s%n",
                    workload.label(), learning.workloadS(), learning.errors().isEmpty() ? "" : ", " + learning.errors());
            if (!Files.isRegularFile(budgetState)) {
                System.err.println("bench real: the learning run wrote no " + budgetState + " (its budget switched nothing off)");
            }
        }
        // The no-agent runs are the reference of correctness and weaving; made even when not reported.
        List<String> frameworks = new ArrayList<>(options.frameworks());
        boolean reportNone = frameworks.contains("none");
        if (!reportNone) {
            frameworks.add(0, "none");
        }
        // Interleaved (run 1 of every configuration, then run 2, ...) so that drift of a shared
        // machine hits every configuration alike.
        for (int run = 1; run <= options.runs(); run++) {
            for (String framework : frameworks) {
                if (run > 1 && framework.equals("none") && !reportNone) {
                    continue; // one unreported reference run is enough
                }
                Path runDir = out.resolve(workload.label()).resolve(framework).resolve("run-" + run);
                RunMeasure m = runOnce(framework, workload, classPath, runDir, budgetState);
                System.err.printf(Locale.ROOT, "bench real: %s, %s, run %d of %d: workload %s s%s%n", workload.label(),
                        framework, run, options.runs(), m.workloadS(), m.errors().isEmpty() ? "" : ", " + m.errors());
                measured.computeIfAbsent(framework, f -> new ArrayList<>()).add(m);
            }
        }
        List<RunMeasure> reference = measured.get("none");
        String referenceDigest = reference.stream().map(RunMeasure::digest).filter(Objects::nonNull)
                .findFirst().orElse(null);
        Double referenceReady = median(reference, RunMeasure::readyS);
        List<RealResult> results = new ArrayList<>();
        for (String framework : options.frameworks()) {
            results.add(aggregate(workload, framework, measured.get(framework), referenceDigest, referenceReady,
                    budgetState));
        }
        return results;
    }

    /** One run of {@code framework}; {@code budgetState}: the state file Sonde's budget starts from, or null. */
    private RunMeasure runOnce(String framework, RealWorkload workload, List<Path> classPath, Path runDir, Path budgetState)
            throws IOException {
        deleteTree(runDir);
        Path output = runDir.resolve("output");
        List<String> jvm = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        switch (framework) {
            case "sonde" -> {
                String agentOptions = "include=" + workload.sondeInclude() + ",writer=file,file.dir=" + output
                        + (options.agentOptions().isBlank() ? "" : "," + options.agentOptions())
                        + (budgetState == null ? "" : ",budget.state=" + budgetState);
                jvm.add("-javaagent:" + sondeAgent + "=" + agentOptions);
            }
            case "kieker" -> {
                jvm.addAll(KiekerFramework.baseOptions(kiekerAgent));
                if (workload == RealWorkload.HTTP) {
                    jvm.addAll(KiekerFramework.yieldStrategies()); // server and client threads produce records
                }
                jvm.addAll(KiekerFramework.binaryFileWriter(output));
                env.put("KIEKER_SIGNATURES_INCLUDE", workload.kiekerInclude());
            }
            default -> { }
        }
        Files.createDirectories(output);
        ChildRun.Outcome outcome = ChildRun.run(java, jvm, env, classPath, workload, options.size(workload), runDir,
                output, options.runTimeoutSeconds(), options.maxBytes());
        List<String> errors = new ArrayList<>();
        Map<String, String> report = outcome.report();
        if (outcome.cut() != null) {
            errors.add("run cut: " + outcome.cut() + " (" + outcome.log() + ")");
        } else if (outcome.exitStatus() != 0 || report.isEmpty()) {
            errors.add("run failed (exit " + outcome.exitStatus() + "): " + outcome.tail());
        }
        boolean failed = !errors.isEmpty();
        if (framework.equals("sonde")) {
            String problem = SondeFramework.agentProblem(Files.readString(outcome.log()));
            if (problem != null) {
                errors.add(problem);
                failed = true;
            }
        }
        long bytes = ChildRun.sizeOf(output);
        Long executions = 0L;
        Long dropped = 0L;
        if (framework.equals("sonde")) {
            SondeRecordCounter.Tally tally = SondeRecordCounter.tally(output, "");
            executions = tally.executions();
            dropped = tally.dropped();
            if (tally.remark() != null) {
                errors.add("sonde output: " + tally.remark());
            }
        } else if (framework.equals("kieker")) {
            try {
                executions = KiekerFiles.count(output, "").matching();
            } catch (IOException e) {
                executions = null;
                errors.add("kieker output: " + e.getMessage());
            }
        }
        long failures = Long.parseLong(report.getOrDefault("failures", "0"));
        for (int i = 0; i < Math.min(failures, 5); i++) {
            errors.add("wrong answer: " + report.get("failure." + i));
        }
        deleteTree(output); // can be gigabytes; its size is what is kept
        return new RunMeasure(outcome.secondsSinceLaunch("main_entry_epoch_us"),
                outcome.secondsSinceLaunch("ready_epoch_us"), outcome.seconds("workload_wall_ns"),
                lastHalfSeconds(report), outcome.seconds("workload_cpu_ns"), outcome.seconds("process_cpu_ns"), executions, bytes, dropped,
                report.containsKey("mbean.InstrumentedClassCount")
                        ? Integer.valueOf(report.get("mbean.InstrumentedClassCount")) : null,
                agentWeaveSeconds(report), report.containsKey("loaded_classes")
                        ? Long.valueOf(report.get("loaded_classes")) : null,
                report.get("digest"), failures, outcome.cut(), failed, errors);
    }

    /**
     * The wall time of the workload's last half of operations, from the app's slice times
     * ({@code slice_end_ns.5} and {@code .10}), or null when the report has none.
     */
    static Double lastHalfSeconds(Map<String, String> report) {
        String half = report.get("slice_end_ns.5");
        String end = report.get("slice_end_ns.10");
        if (half == null || end == null || Long.parseLong(half) <= 0) {
            return null;
        }
        return (Long.parseLong(end) - Long.parseLong(half)) / 1e9;
    }

    /**
     * The weaving time the agent reports itself, when its MBean has an attribute named like
     * {@code ...Weave...Nanos} (or Micros, Millis, Seconds); null otherwise.
     */
    static Double agentWeaveSeconds(Map<String, String> report) {
        for (Map.Entry<String, String> e : report.entrySet()) {
            Matcher m = AGENT_WEAVE_ATTRIBUTE.matcher(e.getKey());
            if (m.matches()) {
                try {
                    double v = Double.parseDouble(e.getValue().trim());
                    return switch (m.group(2)) {
                        case "Nanos" -> v / 1e9;
                        case "Micros" -> v / 1e6;
                        case "Millis" -> v / 1e3;
                        default -> v;
                    };
                } catch (NumberFormatException notANumber) {
                    // not a plain figure: not a weaving time
                }
            }
        }
        return null;
    }

    private RealResult aggregate(RealWorkload workload, String framework, List<RunMeasure> runs, String referenceDigest,
            Double referenceReady, Path budgetState) {
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (String e : runs.get(i).errors()) {
                errors.add("run " + (i + 1) + ": " + e);
            }
        }
        boolean correct = referenceDigest != null;
        if (referenceDigest == null) {
            errors.add("no reference digest: the run without an agent failed");
        }
        for (RunMeasure r : runs) {
            correct &= r.cut() == null && r.failures() == 0 && referenceDigest != null
                    && referenceDigest.equals(r.digest());
        }
        Double ready = median(runs, RunMeasure::readyS);
        Double agentWeave = median(runs, RunMeasure::agentWeaveS);
        Double weave = null;
        String weaveSource = null;
        if (!framework.equals("none")) {
            if (agentWeave != null) {
                weave = agentWeave;
                weaveSource = "agent";
            } else if (ready != null && referenceReady != null) {
                weave = ready - referenceReady;
                weaveSource = "ready-difference";
            }
        }
        Double classes = median(runs, r -> r.weaveClasses() == null ? null : r.weaveClasses().doubleValue());
        Double executions = median(runs, r -> r.executions() == null ? null : r.executions().doubleValue());
        Long dropped = runs.stream().map(RunMeasure::dropped).filter(Objects::nonNull).max(Long::compare).orElse(null);
        String version = switch (framework) {
            case "sonde" -> sondeVersion;
            case "kieker" -> KiekerFramework.VERSION;
            default -> "";
        };
        return new RealResult(workload.label(), framework, version, workload.library(), options.size(workload),
                jdkVersion, runs.size(), median(runs, RunMeasure::startupS), ready, weave, weaveSource,
                classes == null ? null : (int) Math.round(classes), median(runs, RunMeasure::workloadS),
                median(runs, RunMeasure::lastHalfS), median(runs, RunMeasure::cpuS), median(runs, RunMeasure::totalCpuS),
                executions == null ? null : Math.round(executions),
                Math.round(median(runs, r -> (double) r.bytes())), dropped, correct,
                (int) runs.stream().filter(r -> r.cut() != null).count(),
                (int) runs.stream().filter(RunMeasure::failed).count(),
                runs.stream().map(RunMeasure::workloadS).toList(), errors,
                framework.equals("sonde") ? options.agentOptions() + (budgetState == null ? "" : ",budget.state (learned in an unmeasured run)") : null);
    }

    /** The median of the non-null values, or null when there are none. */
    static Double median(List<RunMeasure> runs, Function<RunMeasure, Double> value) {
        List<Double> values = runs.stream().map(value).filter(Objects::nonNull).sorted().toList();
        if (values.isEmpty()) {
            return null;
        }
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
