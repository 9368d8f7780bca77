package io.sonde.analysis;

import io.sonde.analysis.budget.BudgetSwitch;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.InputProblem;
import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.stats.StatisticsCollector;
import io.sonde.analysis.tree.TreeCounters;
import io.sonde.analysis.tree.TreePrinter;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The terminal summary of an analysis: input, counters, statistics table and hot spots. */
public final class TextReport {
    private TextReport() {}

    public static void summary(AnalysisResult r, PrintStream out) {
        TreeCounters c = r.counters();
        out.printf(Locale.ROOT, "Input: %d file(s), %d agent(s)%n", r.inputs().size(), r.agents().size());
        for (AgentInfo a : r.agents()) out.printf("  agent %d: %s host %s pid %d%n", a.index(), a.id(), a.host(), a.pid());
        if (r.logRange() != null) {
            out.printf(Locale.ROOT, "Log: %s .. %s (%.3f s)%n", Instant.ofEpochSecond(0, r.logRange().startNanos()),
                    Instant.ofEpochSecond(0, r.logRange().endNanos()), r.logRange().durationNanos() / 1e9);
        }
        if (!r.window().isAll()) {
            out.printf("Window: %s .. %s%n", r.window().fromNanos() == Long.MIN_VALUE ? "start" : Instant.ofEpochSecond(0, r.window().fromNanos()),
                    r.window().toNanos() == Long.MAX_VALUE ? "end" : Instant.ofEpochSecond(0, r.window().toNanos()));
        }
        out.printf(Locale.ROOT, "Records: %d (%d enters, %d exits, %d events); executions %d; traces %d (per-thread pieces)%n", c.records,
                c.enters, c.exits, c.events, c.executions, c.traces);
        out.printf(Locale.ROOT, "Joined traces across threads: %d; pieces linked to a parent: %d (%d with their hand-off wait); "
                + "unlinked pieces (parent not in the log): %d%n", c.joinedTraces, c.linkedPieces, c.handoffs, c.unlinkedPieces);
        if (c.gaps > 0 || c.discardedOpenExecutions > 0 || c.mismatchedExits > 0 || c.unmatchedExits > 0 || c.openAtEnd > 0) {
            out.printf(Locale.ROOT, "Discarded: %d gap(s) reporting %d dropped record(s); %d open execution(s) discarded; %d mismatched and %d "
                    + "unmatched exit(s); %d record(s) skipped until the next trace start; %d execution(s) still open at the end%n",
                    c.gaps, c.droppedRecords, c.discardedOpenExecutions, c.mismatchedExits, c.unmatchedExits, c.skippedUnsynchronised, c.openAtEnd);
        }
        if (c.brokenTraces > 0) {
            out.printf(Locale.ROOT, "Broken: %d trace(s) open at a hole in the input (damaged or missing records), closed as broken "
                    + "with %d execution(s) of unknown time%n", c.brokenTraces, c.brokenExecutions);
        }
        if (c.trailers > 0 && c.trailerProduced != c.trailerWritten) {
            out.printf(Locale.ROOT, "Agents report %d record(s) produced but only %d written (drops)%n", c.trailerProduced, c.trailerWritten);
        }
        if (!r.probeCost().isNone()) {
            out.printf("Perturbation correction: %d ns wall, %d ns CPU subtracted per nested execution%n", r.probeCost().wallNanos(),
                    r.probeCost().cpuNanos());
        }
        for (InputProblem p : r.problems()) out.println((p.error() ? "ERROR: " : "NOTE: ") + p);
        budgetSwitches(r, out);
        if (r.partial()) out.println("PARTIAL RESULTS: the input could not be read to its end; figures cover the readable part only.");
    }

    /**
     * The probes the overhead budget ({@code budget=PERCENT}) switched off: from that moment the
     * method has no records, by the agent's decision. Nothing is printed when there were none.
     */
    public static void budgetSwitches(AnalysisResult r, PrintStream out) {
        if (r.budgetSwitches().isEmpty()) return;
        out.printf("Probes switched off by the overhead budget (%d; their methods have no records after the time shown):%n",
                r.budgetSwitches().size());
        for (BudgetSwitch s : r.budgetSwitches()) {
            out.printf(Locale.ROOT, "  %s  agent %d  %s: %d executions in the deciding interval, %.1f %% of the cost,"
                    + " mean %s, depth %.1f; monitoring cost %.1f %% of the application's CPU time%n",
                    Instant.ofEpochSecond(0, s.wallNanos()), s.agent(), s.probe(), s.executions(), s.share(),
                    s.meanNanos() < 0 ? "-" : s.meanNanos() + " ns", s.depth(), s.overhead());
        }
    }

    /** The statistics table (times in µs), operations by descending total exclusive time. */
    public static void statistics(AnalysisResult r, PrintStream out, int maxRows) {
        StatisticsCollector st = r.statistics();
        List<OperationStats> all = st.all();
        if (all.isEmpty()) {
            out.println("No completed executions in the selection.");
            return;
        }
        int w = 30;
        for (OperationStats s : all.subList(0, Math.min(maxRows, all.size()))) w = Math.max(w, s.operation().name().length());
        w = Math.min(w, 70);
        out.printf(Locale.ROOT, "%-" + w + "s %9s | %10s %10s %10s %10s %10s | %10s %10s %10s | %10s %12s%n", "Operation (times in us)", "count",
                "incl mean", "p50", "p90", "p99", "max", "excl mean", "p99", "total", "CPU mean", "calls/s");
        double seconds = r.observedSeconds();
        for (OperationStats s : all.subList(0, Math.min(maxRows, all.size()))) {
            String name = s.operation().name();
            if (name.length() > w) name = "~" + name.substring(name.length() - w + 1);
            out.printf(Locale.ROOT, "%-" + w + "s %9d | %10.1f %10s %10s %10s %10s | %10.1f %10s %10s | %10s %12s%n", name, s.count(),
                    s.inclusive().mean() / 1000, TreePrinter.micros(s.inclusive().percentile(50)), TreePrinter.micros(s.inclusive().percentile(90)),
                    TreePrinter.micros(s.inclusive().percentile(99)), TreePrinter.micros(s.inclusive().max()), s.exclusive().mean() / 1000,
                    TreePrinter.micros(s.exclusive().percentile(99)), TreePrinter.micros(s.exclusive().sum()),
                    s.cpuInclusiveMean() < 0 ? "-" : String.format(Locale.ROOT, "%.1f", s.cpuInclusiveMean() / 1000),
                    seconds > 0 ? String.format(Locale.ROOT, "%.2f", s.count() / seconds) : "-");
        }
        if (all.size() > maxRows) out.printf("... %d more operation(s); see --json or --csv%n", all.size() - maxRows);
        handoffWaits(all, out, w);
    }

    /** Per operation that started handed-off work: the wait between hand-off and start (µs). */
    private static void handoffWaits(List<OperationStats> all, PrintStream out, int w) {
        boolean any = false;
        for (OperationStats s : all) {
            if (s.handoffs() == 0) continue;
            if (!any) {
                out.println();
                out.printf(Locale.ROOT, "%-" + w + "s %9s | %10s %10s %10s %10s %10s%n", "Hand-off wait (us) of the handed-off operation", "hand-offs",
                        "mean", "p50", "p90", "p99", "max");
                any = true;
            }
            LatencyDistribution d = s.handoffWait();
            String name = s.operation().name();
            if (name.length() > w) name = "~" + name.substring(name.length() - w + 1);
            out.printf(Locale.ROOT, "%-" + w + "s %9d | %10.1f %10s %10s %10s %10s%n", name, s.handoffs(), d.mean() / 1000,
                    TreePrinter.micros(d.percentile(50)), TreePrinter.micros(d.percentile(90)), TreePrinter.micros(d.percentile(99)),
                    TreePrinter.micros(d.max()));
        }
    }

    /** The top-n hot spots by total exclusive wall time, with their share. */
    public static void hotSpots(AnalysisResult r, PrintStream out, int n) {
        StatisticsCollector st = r.statistics();
        long total = st.totalExclusive();
        out.println("Hot spots (total exclusive wall time):");
        int i = 1;
        for (OperationStats s : st.hotSpots(n)) {
            out.printf(Locale.ROOT, "%3d. %6.2f%%  %14s us  %s%n", i++, total == 0 ? 0.0 : 100.0 * s.exclusive().sum() / total,
                    TreePrinter.micros(s.exclusive().sum()), s.operation().name());
        }
    }

    /**
     * Calls per second over time for the top {@code n} hot spots: one row per operation, one
     * column per stretch of the timeline (adjacent buckets merged so that at most {@code columns}
     * columns are printed).
     */
    public static void timeline(AnalysisResult r, PrintStream out, int n, int columns) {
        StatisticsCollector st = r.statistics();
        int buckets = st.buckets();
        if (buckets == 0) return;
        int per = (buckets + columns - 1) / columns;
        int cols = (buckets + per - 1) / per;
        double seconds = per * st.bucketNanos() / 1e9;
        out.printf(Locale.ROOT, "Calls per second over time (columns of %s s from the window start):%n",
                java.math.BigDecimal.valueOf(seconds).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString());
        for (OperationStats s : st.hotSpots(n)) {
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                long calls = 0;
                for (int k = c * per; k < Math.min(buckets, (c + 1) * per); k++) calls += s.callsInBucket(k);
                b.append(String.format(Locale.ROOT, " %8s", trim(calls / seconds)));
            }
            String name = s.operation().name();
            if (name.length() > 40) name = "~" + name.substring(name.length() - 39);
            out.printf(Locale.ROOT, "%-40s%s%n", name, b);
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
