package io.sonde.bench.overhead.report;

import io.sonde.bench.overhead.OverheadOptions;
import io.sonde.bench.overhead.Phase;
import io.sonde.bench.overhead.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Writes {@code overhead.md}: per JDK and thread count, a table of the phases with each
 * framework's mean (median) time per call, its overhead per monitored execution over phase
 * no-instrumentation, the records written against expected, and the Kieker/Sonde overhead ratio;
 * then the start-up cost, heap and threads of each agent.
 */
public final class MarkdownReport {

    private MarkdownReport() {}

    /** Writes the table for {@code results} to {@code file}. */
    public static void write(Path file, List<Result> results, OverheadOptions options, double seconds, String machine)
            throws IOException {
        Files.writeString(file, render(results, options, seconds, machine), StandardCharsets.UTF_8);
    }

    /** The Markdown text; {@code machine} is a line describing the machine and its load. */
    public static String render(List<Result> results, OverheadOptions options, double seconds, String machine) {
        StringBuilder md = new StringBuilder();
        md.append("# Overhead benchmark (MooBench method)\n\n");
        md.append(machine).append("\n\n");
        md.append(String.format(Locale.ROOT,
                "%d calls per thread and JVM run (first half warm-up), %d run(s), recursion depth %d, method time %d ns; "
                        + "finished in %.0f s.%n%n",
                options.calls(), options.runs(), options.depth(), options.methodTimeNanos(), seconds));
        md.append("Cells: mean us per call (median) / overhead per monitored execution in ns over no-instrumentation, "
                + "from the means (from the medians) / records written of expected. Ratio = Kieker overhead / Sonde "
                + "overhead, from the means (from the medians). On a busy machine the means carry the outliers "
                + "(descheduling, GC); the medians are the steadier figure.\n");
        Set<String> jdks = new LinkedHashSet<>();
        Set<Integer> threadCounts = new LinkedHashSet<>();
        List<String> frameworks = new ArrayList<>();
        for (Result r : results) {
            jdks.add(r.jdk());
            threadCounts.add(r.threads());
            if (!frameworks.contains(r.framework())) {
                frameworks.add(r.framework());
            }
        }
        for (String jdk : jdks) {
            for (int threads : threadCounts) {
                md.append(String.format(Locale.ROOT, "%n## JDK %s, %d thread%s%n%n", jdk, threads, threads == 1 ? "" : "s"));
                md.append("| phase |");
                for (String f : frameworks) {
                    md.append(' ').append(f).append(" |");
                }
                boolean ratio = frameworks.contains("sonde") && frameworks.contains("kieker");
                if (ratio) {
                    md.append(" ratio |");
                }
                md.append("\n|---|");
                md.append("---|".repeat(frameworks.size() + (ratio ? 1 : 0)));
                md.append('\n');
                for (Phase p : Phase.values()) {
                    StringBuilder row = new StringBuilder("| " + p.label() + " |");
                    boolean any = false;
                    for (String f : frameworks) {
                        Result r = find(results, f, jdk, threads, p.label());
                        row.append(' ').append(cell(r)).append(" |");
                        any |= r != null;
                    }
                    if (ratio) {
                        row.append(' ').append(ratio(find(results, "kieker", jdk, threads, p.label()),
                                find(results, "sonde", jdk, threads, p.label()), p)).append(" |");
                    }
                    if (any) {
                        md.append(row).append('\n');
                    }
                }
            }
        }
        md.append("\n## Agent start-up, heap and threads\n\n");
        md.append("JVM launch to the first line of `main` (mean over runs), heap used after a full GC at the end of a run "
                + "(and its difference to no-instrumentation), live threads at the end and the agent's own threads. "
                + "In Sonde's deactivated phase the RMI threads and the Attach Listener come from the JMX connection "
                + "the harness opens to switch the probes off, not from the agent.\n\n");
        md.append("| jdk | threads | framework | phase | start-up ms | heap MiB (agent) | threads | agent threads |\n");
        md.append("|---|---|---|---|---|---|---|---|\n");
        Set<String> baselineDone = new LinkedHashSet<>();
        for (Result r : results) {
            if (r.startupMs() == null) {
                continue;
            }
            if (r.phase().equals(Phase.NO_INSTRUMENTATION.label())) {
                if (!baselineDone.add(r.jdk() + "/" + r.threads())) {
                    continue;
                }
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %.0f | %.1f (%s) | %d | %s |%n", r.jdk(), r.threads(),
                    r.phase().equals(Phase.NO_INSTRUMENTATION.label()) ? "none" : r.framework(), r.phase(), r.startupMs(),
                    r.heapUsedMb(), r.agentHeapMb() == null ? "?" : String.format(Locale.ROOT, "%+.1f", r.agentHeapMb()),
                    r.threadCount(), r.agentThreads().isEmpty() ? "-" : String.join(", ", r.agentThreads())));
        }
        List<String> notes = new ArrayList<>();
        for (Result r : results) {
            if (r.reason() != null && !r.phase().equals(Phase.NO_INSTRUMENTATION.label())) {
                String note = r.framework() + " " + r.phase() + ": " + r.reason();
                if (!notes.contains(note)) {
                    notes.add(note);
                }
            }
            for (String e : r.errors()) {
                notes.add(String.format(Locale.ROOT, "FAILED %s %s jdk %s %d threads: %s", r.framework(), r.phase(), r.jdk(),
                        r.threads(), e));
            }
        }
        if (!notes.isEmpty()) {
            md.append("\n## Notes\n\n");
            for (String n : notes) {
                md.append("- ").append(n.replace("|", "\\|")).append('\n');
            }
        }
        return md.toString();
    }

    private static Result find(List<Result> results, String framework, String jdk, int threads, String phase) {
        for (Result r : results) {
            if (r.framework().equals(framework) && r.jdk().equals(jdk) && r.threads() == threads && r.phase().equals(phase)) {
                return r;
            }
        }
        return null;
    }

    private static String cell(Result r) {
        if (r == null) {
            return "";
        }
        if (r.meanUs() == null) {
            return r.errors().isEmpty() ? "n/a" : "failed";
        }
        StringBuilder c = new StringBuilder(String.format(Locale.ROOT, "%.3f (%.3f)", r.meanUs(), r.medianUs()));
        if (r.overheadNsPerExecution() != null && !r.phase().equals(Phase.NO_INSTRUMENTATION.label())) {
            c.append(String.format(Locale.ROOT, " / %+.1f ns (%+.1f)", r.overheadNsPerExecution(),
                    r.overheadMedianNsPerExecution()));
        }
        if (r.recordsExpected() != null && r.recordsExpected() > 0) {
            c.append(" / ").append(r.recordsWritten() == null ? "?" : Long.toString(r.recordsWritten()))
                    .append(" of ").append(r.recordsExpected());
        }
        return c.toString();
    }

    private static String ratio(Result kieker, Result sonde, Phase p) {
        if (p == Phase.NO_INSTRUMENTATION || kieker == null || sonde == null || kieker.overheadNsPerExecution() == null
                || sonde.overheadNsPerExecution() == null) {
            return "";
        }
        return one(kieker.overheadNsPerExecution(), sonde.overheadNsPerExecution()) + " ("
                + one(kieker.overheadMedianNsPerExecution(), sonde.overheadMedianNsPerExecution()) + ")";
    }

    private static String one(double kieker, double sonde) {
        if (sonde <= 0 || kieker <= 0) {
            return "within noise"; // an overhead at or below zero: no meaningful ratio
        }
        return String.format(Locale.ROOT, "%.1f x", kieker / sonde);
    }
}
