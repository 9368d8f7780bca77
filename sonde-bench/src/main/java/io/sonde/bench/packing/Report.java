package io.sonde.bench.packing;

import java.util.List;
import java.util.Locale;

/** The study's table rows, per-source verdict and JSON. */
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
     * Each adaptive variant against the best static degree and against no packing (static:1).
     * {@code results}: the static degrees first ({@code statics} of them, static:1 the first), then
     * fill and the adaptive variants.
     */
    static String verdict(List<PackingBenchmark.Result> results, int statics) {
        PackingBenchmark.Result none = results.get(0);
        int bestDegree = PackingBenchmark.bestStatic(results, statics);
        PackingBenchmark.Result best = results.stream().filter(r -> r.packing().equals("static:" + bestDegree)).findFirst().orElseThrow();
        StringBuilder b = new StringBuilder();
        for (PackingBenchmark.Result a : results.subList(statics + 1, results.size())) {
            double ofBest = a.eventsPerSecond() / best.eventsPerSecond();
            double overNone = a.eventsPerSecond() / Math.max(1e-9, none.eventsPerSecond());
            if (b.length() > 0) b.append(System.lineSeparator());
            b.append(String.format(Locale.ROOT, "  %s: %.0f %% of the best static degree (%s), %.1f x no packing; goals >= 95 %% %s, >= 3 x %s",
                    a.packing(), 100 * ofBest, best.packing(), overNone, ofBest >= 0.95 ? "met" : "NOT met", overNone >= 3 ? "met" : "NOT met"));
            if (a.recordsPerFrame() > 0 && best.recordsPerFrame() > 0) {
                // the policy's own output, less noisy than a throughput ratio on a loaded machine (records
                // per frame as sent: a degree above what frame.bytes holds gives the same frames)
                b.append(String.format(Locale.ROOT, "; %.1f records/frame against %.1f (%+.1f ladder steps)", a.recordsPerFrame(),
                        best.recordsPerFrame(), Math.log(a.recordsPerFrame() / best.recordsPerFrame()) / Math.log(2)));
            }
        }
        return b.toString();
    }

    static String json(PackingBenchmark.Plan plan, List<PackingBenchmark.Result> results) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "{\n  \"rounds\": %d,\n  \"warmSeconds\": %.1f,\n  \"seconds\": %.1f,\n  \"adaptiveWarmSeconds\": %.1f,\n  \"results\": [",
                plan.rounds(), plan.warmSeconds(), plan.seconds(), plan.adaptiveWarmSeconds()));
        for (int i = 0; i < results.size(); i++) {
            PackingBenchmark.Result r = results.get(i);
            b.append(i == 0 ? "\n" : ",\n");
            b.append(String.format(Locale.ROOT, "    {\"source\": \"%s\", \"packing\": \"%s\", \"seconds\": %.3f, \"events\": %d,"
                    + " \"eventsPerSecond\": %.1f, \"eventsPerSecondMin\": %.1f, \"eventsPerSecondMax\": %.1f, \"mbPerSecond\": %.3f, \"framesPerSecond\": %.1f, \"recordsPerFrame\": %.2f,"
                    + " \"latencyMedianNanos\": %d, \"latencyP99Nanos\": %d, \"latencyMaxNanos\": %d,"
                    + " \"processCpuNanosPerEvent\": %.1f, \"senderCpuNanosPerEvent\": %.1f, \"meanDegree\": %s, \"convergenceSeconds\": %s}",
                    r.source(), r.packing(), r.seconds(), r.events(), r.eventsPerSecond(), r.minEventsPerSecond(), r.maxEventsPerSecond(), r.mbPerSecond(), r.framesPerSecond(),
                    r.recordsPerFrame(), r.medianNanos(), r.p99Nanos(), r.maxNanos(), r.processCpuNanosPerEvent(),
                    r.senderCpuNanosPerEvent(), number(r.meanDegree()), number(r.convergenceSeconds())));
        }
        return b.append("\n  ]\n}\n").toString();
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
