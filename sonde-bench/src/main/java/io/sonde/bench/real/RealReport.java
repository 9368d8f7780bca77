package io.sonde.bench.real;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.bench.overhead.OverheadBenchmark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The output of {@code sonde bench real}: a JSON array with one object per configuration (keys
 * {@code workload, framework, version, library, size, jdk, runs, startup_s, ready_s, weave_s,
 * weave_source, weave_classes, workload_s, last_half_s, cpu_s, total_cpu_s, executions, bytes, dropped,
 * correct, cut, failed_runs, workload_runs_s, errors}; unknown values are null) and a Markdown table.
 * The whole workload's time against the no-agent run's ({@code ×none}) is the headline; the last
 * half's ({@code ×none, last half}: the settled state, after weaving, warm-up and the budget's
 * steps) stands beside it.
 */
final class RealReport {

    private RealReport() {}

    /** Writes the results to {@code file} (its folder is created). */
    static void writeJson(Path file, List<RealResult> results) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        for (RealResult r : results) {
            ObjectNode o = array.addObject();
            o.put("workload", r.workload());
            o.put("framework", r.framework());
            o.put("version", r.version());
            o.put("library", r.library());
            o.put("size", r.size());
            o.put("jdk", r.jdk());
            o.put("runs", r.runs());
            o.put("startup_s", round(r.startupS()));
            o.put("ready_s", round(r.readyS()));
            o.put("weave_s", round(r.weaveS()));
            o.put("weave_source", r.weaveSource());
            o.put("weave_classes", r.weaveClasses());
            o.put("workload_s", round(r.workloadS()));
            o.put("last_half_s", round(r.lastHalfS()));
            o.put("cpu_s", round(r.cpuS()));
            o.put("total_cpu_s", round(r.totalCpuS()));
            o.put("executions", r.executions());
            o.put("bytes", r.bytes());
            o.put("dropped", r.dropped());
            o.put("correct", r.correct());
            o.put("cut", r.cut());
            o.put("failed_runs", r.failedRuns());
            if (r.agentOptions() != null) o.put("agent_options", r.agentOptions());
            ArrayNode runs = o.putArray("workload_runs_s");
            r.workloadRuns().forEach(v -> runs.add(round(v)));
            ArrayNode errors = o.putArray("errors");
            r.errors().forEach(errors::add);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper.writeValue(file.toFile(), array);
    }

    /** A Markdown table of the results, with the load average and JDK as a heading line. */
    static String table(List<RealResult> results) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "sonde bench real: JDK %s, load average %s%n%n",
                results.isEmpty() ? "?" : results.get(0).jdk(), OverheadBenchmark.loadAverage()));
        b.append("| workload | framework | size | runs | start-up s | ready s | weaving s | classes woven"
                + " | workload s | ×none | last half s | ×none, last half | CPU s | executions | bytes | dropped | correct |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (RealResult r : results) {
            RealResult reference = results.stream()
                    .filter(o -> o.workload().equals(r.workload()) && o.framework().equals("none")).findFirst().orElse(null);
            Double none = reference == null ? null : reference.workloadS();
            Double noneHalf = reference == null ? null : reference.lastHalfS();
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.workload(), r.framework(), r.size(), r.runs(), num(r.startupS(), 2), num(r.readyS(), 2),
                    num(r.weaveS(), 2), r.weaveClasses() == null ? "–" : r.weaveClasses().toString(),
                    num(r.workloadS(), 3), ratio(r.workloadS(), none), num(r.lastHalfS(), 3), ratio(r.lastHalfS(), noneHalf),
                    num(r.cpuS(), 2), r.executions() == null ? "?" : String.format(Locale.ROOT, "%,d", r.executions()),
                    r.bytes() == null ? "?" : String.format(Locale.ROOT, "%,d", r.bytes()),
                    r.dropped() == null ? "?" : r.dropped().toString(),
                    (r.correct() ? "yes" : "**no**") + (r.failedRuns() > 0 ? " (" + r.failedRuns() + " run(s) failed"
                            + (r.cut() > 0 ? ", " + r.cut() + " cut" : "") + ")" : "")));
        }
        for (RealResult r : results) {
            for (String e : r.errors()) {
                b.append(String.format("%n- %s/%s: %s", r.workload(), r.framework(), e));
            }
        }
        return b.toString();
    }

    /** {@code v / of} to two decimals (a budget of 5 % is 1.05), or a dash when either is unknown. */
    private static String ratio(Double v, Double of) {
        return v == null || of == null ? "–" : num(v / of, 2);
    }

    private static String num(Double v, int decimals) {
        return v == null ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000.0) / 1000.0;
    }
}
