package io.sonde.bench.packing;

import java.util.List;
import java.util.Locale;

/** The study's tables (sweep and confirmation), the goals' verdict lines and JSON. */
final class Report {
    private Report() {}

    static String header() {
        return String.format(Locale.ROOT, "  %-12s %12s %9s %8s %10s %9s %9s %9s %9s %9s %9s %8s %8s",
                "packing", "events/s", "range %", "MB/s", "frames/s", "rec/frame", "median ms", "p99 ms", "max ms", "cpu ns/ev", "send ns/ev",
                "degree", "conv. s");
    }

    static String row(PackingBenchmark.Result r) {
        return String.format(Locale.ROOT, "  %-12s %,12.0f %9s %8.1f %,10.0f %9.1f %9.2f %9.2f %9.2f %,9.0f %,9.0f %8s %8s",
                r.packing(), r.eventsPerSecond(), range(r), r.mbPerSecond(), r.framesPerSecond(), r.recordsPerFrame(), r.medianNanos() / 1e6,
                r.p99Nanos() / 1e6, r.maxNanos() / 1e6, r.processCpuNanosPerEvent(), r.senderCpuNanosPerEvent(),
                Double.isNaN(r.meanDegree()) ? "" : String.format(Locale.ROOT, "%.0f", r.meanDegree()),
                Double.isNaN(r.convergenceSeconds()) ? (r.packing().startsWith("adaptive") ? "never" : "")
                        : String.format(Locale.ROOT, "%.1f", r.convergenceSeconds()));
    }

    /** The throughput's spread over the rounds, in percent of the median: "-12/+8". */
    private static String range(PackingBenchmark.Result r) {
        double m = Math.max(1e-9, r.eventsPerSecond());
        return String.format(Locale.ROOT, "-%.0f/+%.0f", 100 * (m - r.minEventsPerSecond()) / m, 100 * (r.maxEventsPerSecond() - m) / m);
    }

    /**
     * The sweep's table (static degrees sending identical frames pooled into one row) and, per
     * adaptive variant, its ratio against the best row of this same sweep: labelled as the sweep's,
     * since the best row was selected on these runs (biased upwards by the selection).
     */
    static String sweep(PackingBenchmark.Plan plan, PackingBenchmark.SourceStudy study) {
        String n = System.lineSeparator();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  sweep (training; %d round(s), median round per row):", plan.rounds()));
        b.append(n).append(header());
        for (PackingBenchmark.Result r : study.sweep()) b.append(n).append(row(r));
        PackingBenchmark.Result best = study.sweepRow(study.confirmation().best.label());
        PackingBenchmark.Result none = study.sweep().get(0);
        for (PackingBenchmark.Result a : study.sweep()) {
            if (!a.packing().startsWith("adaptive")) continue;
            b.append(n).append(String.format(Locale.ROOT, "  sweep's own ratio (best selected on these runs, biased): %s %.0f %% of %s, %.1f x %s",
                    a.packing(), 100 * a.eventsPerSecond() / Math.max(1e-9, best.eventsPerSecond()), best.packing(),
                    a.eventsPerSecond() / Math.max(1e-9, none.eventsPerSecond()), none.packing()));
            if (a.recordsPerFrame() > 0 && best.recordsPerFrame() > 0) {
                // the policy's own output: records per frame as sent (a degree above what frame.bytes holds gives the same frames)
                b.append(String.format(Locale.ROOT, "; %.1f records/frame against %.1f (%+.1f ladder steps)", a.recordsPerFrame(),
                        best.recordsPerFrame(), Math.log(a.recordsPerFrame() / best.recordsPerFrame()) / Math.log(2)));
            }
        }
        return b.toString();
    }

    /** The confirmation rounds' table (median round per configuration, range over the rounds) and the goals' verdicts. */
    static String confirmation(PackingBenchmark.Plan plan, PackingBenchmark.SourceStudy study) {
        String n = System.lineSeparator();
        Confirmation c = study.confirmation();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "  confirmation (%d fresh round(s), each configuration once per round in a shuffled order, seed %d; judged here):",
                c.rounds(), plan.seed()));
        b.append(n).append(header());
        for (String config : c.configurations) b.append(n).append(row(c.row(config)));
        return b.append(n).append(c.verdict()).toString();
    }

    static String json(PackingBenchmark.Plan plan, List<PackingBenchmark.SourceStudy> studies) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "{\n  \"rounds\": %d,\n  \"warmSeconds\": %.1f,\n  \"seconds\": %.1f,\n  \"adaptiveWarmSeconds\": %.1f,"
                + "\n  \"confirmRounds\": %d,\n  \"seed\": %d,\n  \"results\": [",
                plan.rounds(), plan.warmSeconds(), plan.seconds(), plan.adaptiveWarmSeconds(), plan.confirmRounds(), plan.seed()));
        boolean first = true;
        for (PackingBenchmark.SourceStudy study : studies) {
            for (PackingBenchmark.Result r : study.sweep()) {
                b.append(first ? "\n" : ",\n");
                first = false;
                b.append(resultJson(r, "sweep"));
            }
            Confirmation c = study.confirmation();
            for (String config : c.configurations) b.append(",\n").append(resultJson(c.row(config), "confirmation"));
        }
        b.append("\n  ],\n  \"verdicts\": [");
        first = true;
        for (PackingBenchmark.SourceStudy study : studies) {
            Confirmation c = study.confirmation();
            PairedRatio ofBest = c.adaptiveOfBest();
            PairedRatio overNone = c.ratio(Confirmation.ADAPTIVE, Confirmation.NONE);
            b.append(first ? "\n" : ",\n");
            first = false;
            b.append(String.format(Locale.ROOT, "    {\"source\": \"%s\", \"best\": \"%s\", \"runnerUp\": %s, \"adaptiveOfBest\": %s,"
                    + " \"adaptiveOverNone\": %s, \"goalOfBest\": \"%s\", \"goalOverNone\": \"%s\"}",
                    study.source().name, c.best.label(), c.runnerUp == null ? "null" : "\"" + c.runnerUp.label() + "\"", ratioJson(ofBest),
                    ratioJson(overNone), c.meetsGoalOfBest() ? "met" : "NOT met", c.goalOverNone()));
        }
        return b.append("\n  ]\n}\n").toString();
    }

    private static String resultJson(PackingBenchmark.Result r, String stage) {
        return String.format(Locale.ROOT, "    {\"stage\": \"%s\", \"source\": \"%s\", \"packing\": \"%s\", \"seconds\": %.3f, \"events\": %d,"
                + " \"eventsPerSecond\": %.1f, \"eventsPerSecondMin\": %.1f, \"eventsPerSecondMax\": %.1f, \"mbPerSecond\": %.3f, \"framesPerSecond\": %.1f, \"recordsPerFrame\": %.2f,"
                + " \"latencyMedianNanos\": %d, \"latencyP99Nanos\": %d, \"latencyMaxNanos\": %d,"
                + " \"processCpuNanosPerEvent\": %.1f, \"senderCpuNanosPerEvent\": %.1f, \"meanDegree\": %s, \"convergenceSeconds\": %s}",
                stage, r.source(), r.packing(), r.seconds(), r.events(), r.eventsPerSecond(), r.minEventsPerSecond(), r.maxEventsPerSecond(), r.mbPerSecond(),
                r.framesPerSecond(), r.recordsPerFrame(), r.medianNanos(), r.p99Nanos(), r.maxNanos(), r.processCpuNanosPerEvent(),
                r.senderCpuNanosPerEvent(), number(r.meanDegree()), number(r.convergenceSeconds()));
    }

    private static String ratioJson(PairedRatio r) {
        return String.format(Locale.ROOT, "{\"median\": %.4f, \"min\": %.4f, \"max\": %.4f}", r.median(), r.min(), r.max());
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
