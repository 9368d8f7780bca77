package io.sonde.bench.weave;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.tools.attach.VirtualMachine;
import io.sonde.bench.common.OptionArgs;
import io.sonde.bench.overhead.AppJar;
import io.sonde.bench.overhead.OverheadBenchmark;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.sonde.SondeFramework;
import io.sonde.bench.weave.app.WeaveApp;
import io.sonde.core.control.AttachHandshake;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code sonde bench weave}: what weaving a whole library costs. A child JVM loads (without
 * initialising) every class of H2 2.5.252 under {@code -javaagent:sonde-agent.jar=include=org.h2.*}
 * with the discard writer, and reports the agent's own weaving counters (classes woven, total and
 * largest time per class, classes it could not weave) and its start-up (launch to {@code main},
 * against the same without an agent). The attach configuration loads the classes first, then
 * attaches the agent with the same options and measures until the agent reports its weaving done.
 * With {@code --baseline-agent JAR} the same configurations run with a second agent (e.g. one built
 * from an earlier commit) interleaved with the first: a before/after in one run. See
 * docs/benchmarks.md, "Weaving".
 */
public final class WeaveBenchmark {

    static final String USAGE = String.join("\n",
            "usage: sonde bench weave [options]",
            "  --quick               CI run: 1 run per configuration",
            "  --runs N              JVM runs per configuration (default 3)",
            "  --json FILE           write the results as a JSON array (default OUT/weave.json)",
            "  --out DIR             output directory (default target/weave)",
            "  --jdk PATH            JDK home the child JVMs run on (default: the running JDK)",
            "  --sonde-agent JAR     Sonde agent jar (default sonde-agent/target/sonde-agent.jar)",
            "  --baseline-agent JAR  a second agent measured side by side (label 'baseline')",
            "  --no-attach           leave out the attach configurations",
            "  --cache DIR           download cache (default ~/.cache/sonde/bench)",
            "  --run-timeout S       kill a child JVM after S seconds (default 300)");

    private static final String H2_GROUP = "com.h2database";
    private static final String H2_ARTIFACT = "h2";
    private static final String H2_VERSION = "2.5.252";
    private static final String INCLUDE = "org.h2.*";
    private static final String PHASE_PREFIX = "agent.start.";

    private WeaveBenchmark() {}

    /** One configuration: which agent (null: none) and how it is loaded. */
    private record Config(String label, Path agent, boolean attach) {}

    /** Runs the benchmark with the arguments after {@code weave}; exit status 1 when a run failed. */
    public static void main(String[] args) throws Exception {
        boolean quick = false;
        boolean attach = true;
        int runs = 3;
        Path json = null;
        Path out = Path.of("target", "weave");
        Path jdk = Path.of(System.getProperty("java.home"));
        Path agentJar = null;
        Path baseline = null;
        Path cacheDir = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        int timeout = 300;
        boolean runsGiven = false;
        OptionArgs arguments = new OptionArgs(args);
        try {
            while (arguments.next()) {
                String option = arguments.option();
                if (option.equals("--quick")) {
                    quick = true;
                    continue;
                }
                if (option.equals("--no-attach")) {
                    attach = false;
                    continue;
                }
                String value = arguments.value();
                switch (option) {
                    case "--runs" -> {
                        runs = (int) OptionArgs.parseLong(option, value, 1);
                        runsGiven = true;
                    }
                    case "--json" -> json = Path.of(value);
                    case "--out" -> out = Path.of(value);
                    case "--jdk" -> jdk = OptionArgs.checkJdk(value);
                    case "--sonde-agent" -> agentJar = Path.of(value);
                    case "--baseline-agent" -> baseline = Path.of(value);
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
        if (baseline != null && !Files.isRegularFile(baseline)) {
            throw new IllegalArgumentException("option --baseline-agent: " + baseline + " does not exist");
        }
        out = out.toAbsolutePath();
        Files.createDirectories(out);
        SondeFramework sonde = new SondeFramework(agentJar, out.resolve("agent"));
        sonde.prepare();
        Path h2 = new ArtifactCache(cacheDir.toAbsolutePath()).jar(H2_GROUP, H2_ARTIFACT, H2_VERSION, null);
        Path app = AppJar.write(out.resolve("weave-app.jar"), WeaveApp.class);
        Path java = jdk.resolve("bin").resolve("java");

        List<Config> configs = new ArrayList<>();
        configs.add(new Config("none", null, false));
        configs.add(new Config("sonde", sonde.agentJar(), false));
        if (baseline != null) {
            configs.add(new Config("baseline", baseline.toAbsolutePath(), false));
        }
        if (attach) {
            configs.add(new Config("sonde-attach", sonde.agentJar(), true));
            if (baseline != null) {
                configs.add(new Config("baseline-attach", baseline.toAbsolutePath(), true));
            }
        }
        Map<Config, List<Map<String, Double>>> measured = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        // Interleaved, so that drift of a shared machine hits every configuration alike.
        for (int run = 1; run <= runs; run++) {
            for (Config c : configs) {
                Path dir = out.resolve(c.label()).resolve("run-" + run);
                try {
                    Map<String, Double> m = runOnce(java, app, h2, c, dir, timeout);
                    measured.computeIfAbsent(c, k -> new ArrayList<>()).add(m);
                    System.err.printf(Locale.ROOT, "bench weave: %s, run %d of %d: %s%n", c.label(), run, runs, m);
                } catch (IOException e) {
                    errors.add(c.label() + " run " + run + ": " + e.getMessage());
                    System.err.println("bench weave: " + c.label() + " run " + run + " failed: " + e.getMessage());
                }
            }
        }
        Double noneStartup = median(measured.get(configs.get(0)), "startup_s");
        Double noneLoad = median(measured.get(configs.get(0)), "load_s");
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        StringBuilder table = new StringBuilder(
                "| configuration | runs | classes | woven | start-up s | agent start s | load s | weaving s | ms per woven class | load extra ms per class | max ms | not woven | attach s |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        StringBuilder phaseLines = new StringBuilder();
        for (Config c : configs) {
            List<Map<String, Double>> ms = measured.getOrDefault(c, List.of());
            ObjectNode o = array.addObject();
            o.put("framework", c.agent() == null ? "none" : "sonde");
            o.put("configuration", c.label());
            o.put("mode", c.agent() == null ? "none" : c.attach() ? "attach" : "javaagent");
            o.put("agent", c.agent() == null ? null : c.agent().toString());
            o.put("library", H2_GROUP + ":" + H2_ARTIFACT + ":" + H2_VERSION);
            o.put("include", INCLUDE);
            o.put("jdk", OverheadBenchmark.jdkVersion(jdk));
            o.put("runs", ms.size());
            Double startup = median(ms, "startup_s");
            Double agentStart = c.agent() == null || c.attach() || startup == null || noneStartup == null
                    ? null : startup - noneStartup;
            String[] keys = {"classes", "woven", "startup_s", "load_s", "weave_s", "ms_per_class", "max_ms", "failed",
                "attach_s", "attach_total_s"};
            for (String k : keys) {
                put(o, k, median(ms, k));
            }
            put(o, "agent_startup_s", agentStart);
            Double loadExtra = c.agent() == null || c.attach() ? null : difference(median(ms, "load_s"), noneLoad);
            Double woven = median(ms, "woven");
            put(o, "load_extra_s", loadExtra);
            put(o, "load_extra_ms_per_class", loadExtra == null || woven == null || woven == 0 ? null : loadExtra * 1e3 / woven);
            if (c.attach()) {
                put(o, "attach_cpu_s", median(ms, "attach_cpu_s"));
                put(o, "attach_vm_s", median(ms, "attach_vm_s"));
                put(o, "attach_load_agent_s", median(ms, "attach_load_agent_s"));
            }
            ObjectNode phases = o.putObject("phases_s"); // the agent's own start phases, medians, in order
            List<String> phaseLine = new ArrayList<>();
            for (String k : phaseKeys(ms)) {
                String name = k.substring("phase.".length(), k.length() - 2);
                put(phases, name, median(ms, k));
                phaseLine.add(name + " " + fmt(median(ms, k), 3));
            }
            if (c.attach() && !phaseLine.isEmpty()) {
                phaseLines.append(String.format(Locale.ROOT,
                        "%s, seconds: process CPU %s, VirtualMachine.attach %s, loadAgent %s; agent: %s%n",
                        c.label(), fmt(median(ms, "attach_cpu_s"), 3), fmt(median(ms, "attach_vm_s"), 3),
                        fmt(median(ms, "attach_load_agent_s"), 3),
                        String.join(", ", phaseLine)));
            }
            ArrayNode perRun = o.putArray("ms_per_class_runs");
            ms.forEach(m -> perRun.add(round(m.get("ms_per_class"))));
            table.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    c.label(), ms.size(), fmt(median(ms, "classes"), 0), fmt(woven, 0), fmt(startup, 3),
                    fmt(agentStart, 3), fmt(median(ms, "load_s"), 3), fmt(median(ms, "weave_s"), 3),
                    fmt(median(ms, "ms_per_class"), 3),
                    fmt(loadExtra == null || woven == null || woven == 0 ? null : loadExtra * 1e3 / woven, 3),
                    fmt(median(ms, "max_ms"), 1), fmt(median(ms, "failed"), 0),
                    fmt(median(ms, c.attach() ? "attach_total_s" : "none"), 3)));
        }
        Path file = json != null ? json : out.resolve("weave.json");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper.writeValue(file.toFile(), array);
        System.out.print(table);
        System.out.print(phaseLines);
        System.out.println("load average: " + loadAverage() + "; results: " + file.toAbsolutePath());
        if (!errors.isEmpty()) {
            System.exit(1);
        }
    }

    /** One child JVM; the figures of its report. */
    private static Map<String, Double> runOnce(Path java, Path app, Path h2, Config c, Path dir, int timeout)
            throws IOException {
        Files.createDirectories(dir);
        Path report = dir.resolve("report.txt");
        Path ready = dir.resolve("ready");
        Files.deleteIfExists(report);
        Files.deleteIfExists(ready);
        String options = "include=" + INCLUDE + ",writer=discard";
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx1g"));
        if (c.agent() != null && !c.attach()) {
            command.add("-javaagent:" + c.agent() + "=" + options);
        }
        if (c.attach()) {
            command.add("-XX:+EnableDynamicAgentLoading"); // quiet on JDK 21+; accepted by 17
        }
        command.addAll(List.of("-cp", app + File.pathSeparator + h2, WeaveApp.class.getName(),
                "--jar", h2.toString(), "--prefix", "org.h2.", "--report", report.toString()));
        if (c.attach()) {
            // initialised, as in a program that has been running: the JVM links a class before
            // it re-transforms it, and a class loaded but never linked may fail to link there
            command.addAll(List.of("--attach", ready.toString(), "--initialize", "true"));
        }
        Files.writeString(dir.resolve("command.txt"), String.join(" ", command) + "\n");
        long launch = epochMicros();
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("jvm.log").toFile()).start();
        long deadline = System.nanoTime() + timeout * 1_000_000_000L;
        Long attachStart = null;
        long[] attachCall = null;
        try {
            while (!p.waitFor(c.attach() && attachStart == null ? 5 : 100, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    p.destroyForcibly().waitFor();
                    throw new IOException("killed after " + timeout + " s (log: " + dir.resolve("jvm.log") + ")");
                }
                if (c.attach() && attachStart == null && Files.exists(ready)) {
                    attachStart = epochMicros();
                    attachCall = attach(p.pid(), c.agent(), options);
                }
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        if (p.exitValue() != 0 || !Files.isRegularFile(report)) {
            throw new IOException("exit status " + p.exitValue() + ", no report (log: " + dir.resolve("jvm.log") + ")");
        }
        Map<String, String> r = new LinkedHashMap<>();
        for (String line : Files.readAllLines(report, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                r.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        if (r.containsKey("attach_error") || r.containsKey("agent_error")) {
            throw new IOException(r.getOrDefault("attach_error", r.get("agent_error")));
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("startup_s", (Long.parseLong(r.get("main_us")) - launch) / 1e6);
        m.put("load_s", Long.parseLong(r.get("load_ns")) / 1e9);
        m.put("classes", Double.parseDouble(r.get("classes")));
        if (c.agent() != null) {
            // an agent without weaving counters (one built before them) gives only its class count
            Double woven = number(r, "agent.weave.classes");
            m.put("woven", woven != null ? woven : number(r, "agent.instrumented_classes"));
            Double weaveMs = number(r, "agent.weave.ms");
            m.put("weave_s", weaveMs == null ? null : weaveMs / 1e3);
            m.put("ms_per_class", weaveMs == null || woven == null || woven == 0 ? null : weaveMs / woven);
            m.put("max_ms", number(r, "agent.weave.max.ms"));
            m.put("failed", number(r, "agent.weave.failed"));
        }
        if (c.attach()) {
            // "done W/T MILLIS": the agent's own time from agentmain to the last class re-transformed
            String[] done = r.getOrDefault("attach_weaving", "").split(" ");
            m.put("attach_s", done.length == 3 ? Long.parseLong(done[2]) / 1e3 : null);
            m.put("attach_total_s", attachStart == null ? null : (Long.parseLong(r.get("attach_done_us")) - attachStart) / 1e6);
            m.put("attach_cpu_s", r.containsKey("attach_cpu_ns") ? Long.parseLong(r.get("attach_cpu_ns")) / 1e9 : null);
            if (attachCall != null) {
                m.put("attach_vm_s", attachCall[0] / 1e9);
                m.put("attach_load_agent_s", attachCall[1] / 1e9);
            }
        }
        if (c.agent() != null) {
            // the agent's own phases (start.PHASE.ms counters), from the JVM calling it to the weaving done
            r.forEach((k, v) -> {
                if (k.startsWith(PHASE_PREFIX) && k.endsWith(".ms")) {
                    m.put("phase." + k.substring(PHASE_PREFIX.length(), k.length() - 3) + "_s", Double.parseDouble(v) / 1e3);
                }
            });
        }
        return m;
    }

    /**
     * Attaches the agent; returns the nanoseconds of {@code VirtualMachine.attach} (this process
     * starting the target's attach listener, with {@link AttachHandshake} as {@code sonde attach}
     * does, and connecting to it) and of {@code loadAgent} (the target opening
     * the jar and running {@code agentmain}, which returns before the weaving is done).
     */
    private static long[] attach(long pid, Path agent, String options) throws IOException {
        try {
            long t0 = System.nanoTime();
            VirtualMachine vm = AttachHandshake.attach(pid); // as sonde attach does
            long t1 = System.nanoTime();
            try {
                vm.loadAgent(agent.toString(), options);
                return new long[] {t1 - t0, System.nanoTime() - t1};
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            throw new IOException("attach to " + pid + " failed: " + e, e);
        }
    }

    /** The phase keys of the runs, in the order the agent reported them. */
    private static List<String> phaseKeys(List<Map<String, Double>> runs) {
        List<String> keys = new ArrayList<>();
        for (Map<String, Double> m : runs) {
            for (String k : m.keySet()) {
                if (k.startsWith("phase.") && !keys.contains(k)) {
                    keys.add(k);
                }
            }
        }
        return keys;
    }

    private static Double number(Map<String, String> r, String key) {
        String v = r.get(key);
        return v == null || v.equals("-") ? null : Double.valueOf(v);
    }

    private static Double difference(Double a, Double b) {
        return a == null || b == null ? null : a - b;
    }

    private static Double median(List<Map<String, Double>> runs, String key) {
        if (runs == null) {
            return null;
        }
        List<Double> v = runs.stream().map(m -> m.get(key)).filter(x -> x != null).sorted().toList();
        if (v.isEmpty()) {
            return null;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static void put(ObjectNode o, String key, Double v) {
        if (v == null) {
            o.putNull(key);
        } else {
            o.put(key, round(v));
        }
    }

    private static double round(Double v) {
        return v == null ? Double.NaN : Math.round(v * 10_000) / 10_000.0;
    }

    private static String fmt(Double v, int decimals) {
        return v == null ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
