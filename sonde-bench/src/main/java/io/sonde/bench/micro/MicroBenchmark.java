package io.sonde.bench.micro;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code ./sonde bench micro [--quick] [--json FILE] [--threads 1,2,4] [--jdk PATH]}: runs the JMH
 * benchmarks of {@link ProbeBenchmarks}, prints a table with the targets of DESIGN.md checked against
 * the {@code nanotime} case of the same run, and writes one JSON object per case and thread count.
 */
public final class MicroBenchmark {
    /** JSON case name to JMH method name. */
    private static final Map<String, String> CASES = new LinkedHashMap<>();

    static {
        CASES.put("nanotime", "nanotime");
        CASES.put("cputime", "cputime");
        CASES.put("off", "off");
        CASES.put("discard", "discard");
        CASES.put("discard-cpu", "discardCpu");
        CASES.put("file", "file");
        CASES.put("field-write", "fieldWrite");
        CASES.put("sensor-idle", "sensorIdle");
        CASES.put("sensor-active", "sensorActive");
        CASES.put("handoff-plain", "handoffPlain");
        CASES.put("handoff-traced", "handoffTraced");
    }

    /** Cases measured at every requested thread count; the others only single-threaded. */
    private static final List<String> THREADED = List.of("off", "discard", "file");

    private MicroBenchmark() {}

    /** One measured case. */
    record Result(String name, int threads, double nsPerOp, double error, String jdk) {}

    public static void main(String[] args) throws RunnerException, IOException {
        boolean quick = false;
        Path json = null;
        List<Integer> threads = List.of(1, 2, 4);
        String jvm = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick":
                    quick = true;
                    break;
                case "--json":
                    json = Path.of(value(args, ++i, "--json"));
                    break;
                case "--threads":
                    threads = parseThreads(value(args, ++i, "--threads"));
                    break;
                case "--jdk":
                    jvm = Path.of(value(args, ++i, "--jdk"), "bin", "java").toString();
                    break;
                case "-h":
                case "--help":
                    System.out.println("usage: sonde bench micro [--quick] [--json FILE] [--threads 1,2,4] [--jdk PATH]");
                    return;
                default:
                    throw usage("unknown option '" + args[i] + "'");
            }
        }
        List<Result> results = new ArrayList<>();
        for (Map.Entry<String, String> c : CASES.entrySet()) {
            List<Integer> counts = THREADED.contains(c.getKey()) ? threads : List.of(1);
            for (int t : counts) {
                results.add(run(c.getKey(), c.getValue(), t, quick, jvm));
            }
        }
        print(results);
        if (json != null) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (Result r : results) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("case", r.name());
                row.put("threads", r.threads());
                row.put("ns_per_op", r.nsPerOp());
                row.put("ns_per_op_error", Double.isNaN(r.error()) ? null : r.error());
                row.put("jdk", r.jdk());
                row.put("quick", quick);
                rows.add(row);
            }
            Path parent = json.toAbsolutePath().getParent();
            if (parent != null) java.nio.file.Files.createDirectories(parent);
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), rows);
            System.out.println("wrote " + json);
        }
    }

    private static Result run(String name, String method, int threads, boolean quick, String jvm)
            throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(ProbeBenchmarks.class.getName() + "\\." + method + "$")
                .threads(threads)
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        if (quick) {
            o.forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(500))
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(500));
        } else {
            o.forks(2).warmupIterations(3).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(1));
        }
        if (jvm != null) o.jvm(jvm);
        System.out.printf(Locale.ROOT, "running %-15s threads=%d ...%n", name, threads);
        RunResult r = new Runner(o.build()).runSingle();
        double score = r.getPrimaryResult().getScore();
        double err = r.getPrimaryResult().getScoreError();
        String jdk = r.getParams().getJdkVersion() + " (" + r.getParams().getVmName() + " "
                + r.getParams().getVmVersion() + ")";
        return new Result(name, threads, score, err, jdk); // err is NaN when too few iterations for an interval
    }

    private static void print(List<Result> results) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-15s %7s %12s %10s   %s%n", "case", "threads", "ns/op", "+-", "jdk");
        double nano = Double.NaN;
        double fieldWrite = Double.NaN;
        for (Result r : results) {
            String err = Double.isNaN(r.error()) ? "n/a" : String.format(Locale.ROOT, "%.2f", r.error());
            System.out.printf(Locale.ROOT, "%-15s %7d %12.2f %10s   %s%n", r.name(), r.threads(), r.nsPerOp(), err, r.jdk());
            if (r.name().equals("nanotime")) nano = r.nsPerOp();
            if (r.name().equals("field-write")) fieldWrite = r.nsPerOp();
        }
        double plain = Double.NaN;
        double traced = Double.NaN;
        for (Result r : results) {
            if (r.name().equals("handoff-plain")) plain = r.nsPerOp();
            if (r.name().equals("handoff-traced")) traced = r.nsPerOp();
        }
        if (!Double.isNaN(plain) && !Double.isNaN(traced)) {
            System.out.printf(Locale.ROOT, "hand-off with an active trace: %.1f ns more than a plain execute (%.1f vs %.1f ns per task run)%n",
                    traced - plain, traced, plain);
        }
        System.out.println();
        System.out.println("targets (DESIGN.md), against this run's nanotime = "
                + String.format(Locale.ROOT, "%.2f ns", nano) + ":");
        for (Result r : results) {
            if (r.name().equals("off")) {
                // one "execution" = one enter+exit pair, which is what an op is
                System.out.printf(Locale.ROOT, "  off     threads=%d: %6.2f ns per execution, target <= 2 ns: %s%n",
                        r.threads(), r.nsPerOp(), r.nsPerOp() <= 2.0 ? "met" : "NOT met");
            } else if (r.name().equals("file")) {
                double bound = 1.5 * 2 * nano;
                System.out.printf(Locale.ROOT,
                        "  file    threads=%d: %6.2f ns per enter+exit = %.2f x two nanoTime(), target <= 1.5 x (%.1f ns): %s%n",
                        r.threads(), r.nsPerOp(), r.nsPerOp() / (2 * nano), bound, r.nsPerOp() <= bound ? "met" : "NOT met");
            } else if (r.name().equals("sensor-idle")) {
                double over = r.nsPerOp() - fieldWrite;
                System.out.printf(Locale.ROOT, "  sensor-idle: %6.2f ns, %.2f ns over field-write, target <= 2 ns over: %s%n",
                        r.nsPerOp(), over, over <= 2.0 ? "met" : "NOT met");
            }
        }
    }

    static List<Integer> parseThreads(String s) {
        List<Integer> out = new ArrayList<>();
        for (String part : s.split(",")) {
            try {
                int n = Integer.parseInt(part.trim());
                if (n < 1 || n > 256) throw usage("--threads: '" + part + "' is not between 1 and 256");
                out.add(n);
            } catch (NumberFormatException e) {
                throw usage("--threads: '" + part + "' is not a number (expected a list such as 1,2,4)");
            }
        }
        return out;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) throw usage(option + " needs a value");
        return args[i];
    }

    private static IllegalArgumentException usage(String msg) {
        return new IllegalArgumentException(msg);
    }
}
