package io.sonde.bench.packing;

import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.bench.common.Folders;
import io.sonde.bench.common.OptionArgs;
import io.sonde.collector.Collector;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Pipeline;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The packing study ({@code ./sonde bench packing [--quick] [--json F] [--seconds S]
 * [--adaptive-warm S] [--source NAME] [--confirm K] [--seed N] [--degrees D1,D2,...]}), after "adaptive message packing"
 * section 4. For each source (continuous 100, 1,000 and 10,000-byte events, a source whose event
 * size changes, a bursty source):
 *
 * <ol>
 *   <li><b>Sweep</b> (training): each packing configuration (no packing = one record per frame,
 *       every static degree 2^0 .. 2^10, {@code fill}, {@code adaptive} (writer CPU per record),
 *       {@code adaptive:wall} (wall-clock time per record, the paper's measure)) in 3 interleaved
 *       rounds; static degrees that send identical frames ({@link DegreeGroup}) are pooled into one
 *       row. The best static degree and the runner-up are selected here.</li>
 *   <li><b>Confirmation</b> ({@link Confirmation}): K fresh paired rounds of the best, the
 *       runner-up, no packing and {@code adaptive}, order shuffled per round with a fixed seed; the
 *       goals' verdicts are computed from these rounds, not from the runs the best was chosen on.</li>
 * </ol>
 * Every run: a monitor in this JVM sends its events with the tcp writer over 127.0.0.1 to the real
 * collector (sonde-collector's receiver, one lossless decoding handler); reported: events/s, MB/s,
 * latency from the event's time stamp to its decoding at the receiver (median, p99, max), CPU per
 * event (the whole process, and the sending side: source plus writer thread), records per frame,
 * and for adaptive how long the degree took to reach the neighbourhood of the best static degree.
 */
public final class PackingBenchmark {
    private PackingBenchmark() {}

    /** One measured configuration of one source. */
    record Result(String source, String packing, double seconds, long events, double eventsPerSecond, double mbPerSecond,
            double framesPerSecond, double recordsPerFrame, long medianNanos, long p99Nanos, long maxNanos,
            double processCpuNanosPerEvent, double senderCpuNanosPerEvent, double meanDegree, double convergenceSeconds,
            double minEventsPerSecond, double maxEventsPerSecond) {
        Result withSpread(double min, double max, double convergence) {
            return new Result(source, packing, seconds, events, eventsPerSecond, mbPerSecond, framesPerSecond, recordsPerFrame,
                    medianNanos, p99Nanos, maxNanos, processCpuNanosPerEvent, senderCpuNanosPerEvent, meanDegree, convergence, min, max);
        }

        /** The same figures under another row name (a group of static degrees). */
        Result withPacking(String name) {
            return new Result(source, name, seconds, events, eventsPerSecond, mbPerSecond, framesPerSecond, recordsPerFrame,
                    medianNanos, p99Nanos, maxNanos, processCpuNanosPerEvent, senderCpuNanosPerEvent, meanDegree, convergenceSeconds,
                    minEventsPerSecond, maxEventsPerSecond);
        }
    }

    /** One run: its result and, for adaptive, the degree over time (seconds since the source started, degree). */
    record Run(Result result, double[] traceSeconds, int[] traceDegrees) {
        /** Seconds until the degree first came within one index step of [{@code 2^low}, {@code 2^high}]; NaN if never. */
        double convergenceSeconds(int low, int high) {
            for (int i = 0; i < traceDegrees.length; i++) {
                int index = 31 - Integer.numberOfLeadingZeros(traceDegrees[i]);
                if (index >= low - 1 && index <= high + 1) return traceSeconds[i];
            }
            return Double.NaN;
        }
    }

    /**
     * What to run: sources, degrees, times; {@code rounds} of the sweep, {@code confirmRounds} of the
     * confirmation, whose orders are drawn from {@code seed}; {@code frameBytes} is the writer's
     * {@code frame.bytes} (the default), which decides which degrees send identical frames.
     */
    record Plan(List<Source> sources, List<Integer> degrees, double warmSeconds, double seconds, double adaptiveWarmSeconds, int rounds,
            int confirmRounds, long seed, int frameBytes) {
        /** This plan with only the source named {@code name}: {@code 100}, {@code 1000}, {@code 10000}, {@code changing} or {@code bursty}. */
        Plan only(String name) {
            List<Source> kept = sources.stream().filter(s -> s.name.equals(name) || s.name.equals(name + " B") || s.kind.name().equalsIgnoreCase(name)).toList();
            if (kept.isEmpty()) {
                throw new IllegalArgumentException("option --source: no source named '" + name + "'; sources: "
                        + sources.stream().map(s -> s.name).toList());
            }
            return new Plan(kept, degrees, warmSeconds, seconds, adaptiveWarmSeconds, rounds, confirmRounds, seed, frameBytes);
        }

        /** This plan with the adaptive runs measured only after {@code seconds} (time to converge). */
        Plan withAdaptiveWarm(double seconds) {
            return new Plan(sources, degrees, warmSeconds, this.seconds, seconds, rounds, confirmRounds, seed, frameBytes);
        }

        /**
         * This plan with the static degrees {@code list} instead of the ladder 1, 2, 4 … 1,024 (e.g.
         * the neighbourhood of a peak: 32, 48, 64, 96, 128, 131), each a configuration of the sweep.
         */
        Plan withDegrees(List<Integer> list) {
            return new Plan(sources, List.copyOf(list), warmSeconds, seconds, adaptiveWarmSeconds, rounds, confirmRounds, seed, frameBytes);
        }

        /** This plan with {@code k} confirmation rounds in an order drawn from {@code seed}. */
        Plan withConfirmation(int k, long seed) {
            return new Plan(sources, degrees, warmSeconds, seconds, adaptiveWarmSeconds, rounds, k, seed, frameBytes);
        }

        /** The configurations of the sweep: every static degree, fill, adaptive, adaptive:wall. */
        List<String> sweepConfigurations() {
            List<String> configs = new ArrayList<>();
            for (int d : degrees) configs.add("static:" + d);
            configs.add("fill");
            configs.add(Confirmation.ADAPTIVE);
            configs.add("adaptive:wall");
            return configs;
        }

        /**
         * The expected wall time in seconds: the runs' warm-up and measured time plus about
         * {@link #RUN_OVERHEAD_SECONDS} per run to start and stop a collector and a monitor.
         */
        double expectedSeconds() {
            double total = warmSeconds + seconds + RUN_OVERHEAD_SECONDS;
            for (Source s : sources) {
                double measured = s.measuredSeconds(seconds);
                double staticRun = warmSeconds + measured + RUN_OVERHEAD_SECONDS;
                double adaptiveRun = adaptiveWarmSeconds + measured + RUN_OVERHEAD_SECONDS;
                double sweep = rounds * ((degrees.size() + 1) * staticRun + 2 * adaptiveRun);
                total += sweep + confirmRounds * (3 * staticRun + adaptiveRun);
            }
            return total;
        }
    }

    /**
     * Seconds to start and stop a collector and a monitor around one run, for the printed estimate:
     * the quick study took about 0.1 s per run beyond its timed part on the loaded machine; 0.3 s
     * leaves room.
     */
    static final double RUN_OVERHEAD_SECONDS = 0.3;
    /**
     * The full study's time before an adaptive run is measured: the degree starts at 1 and takes
     * at most one step per {@code packing.interval.ms} (0.5 s), so reaching 256 takes 8 decisive
     * comparisons (4 s) and in practice more, since a comparison within the noise is a tie.
     */
    static final double ADAPTIVE_WARM_SECONDS = 15;
    /** The confirmation rounds of the full study. */
    static final int CONFIRM_ROUNDS = 5;
    /** The default seed of the confirmation rounds' orders (fixed: a run can be repeated exactly). */
    static final long SEED = 12;

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path json = null;
        double seconds = -1;
        String only = null;
        double adaptiveWarm = -1;
        int confirm = -1;
        long seed = SEED;
        List<Integer> degrees = null;
        OptionArgs a = new OptionArgs(args);
        while (a.next()) {
            switch (a.option()) {
                case "--quick" -> quick = true;
                case "--json" -> json = Path.of(a.value());
                case "--seconds" -> seconds = positiveSeconds(a.value());
                case "--source" -> only = a.value();
                case "--adaptive-warm" -> adaptiveWarm = positiveSeconds(a.value());
                case "--confirm" -> confirm = rounds(a.value());
                case "--seed" -> seed = seed(a.value());
                case "--degrees" -> degrees = degrees(a.value());
                default -> throw new IllegalArgumentException("unknown option '" + a.option()
                        + "'; options: --quick --json F --seconds S --adaptive-warm S --source NAME --confirm K --seed N --degrees D1,D2,...");
            }
        }
        Plan plan = quick ? quickPlan() : fullPlan(seconds > 0 ? seconds : 1.5);
        if (only != null) plan = plan.only(only);
        if (adaptiveWarm > 0) plan = plan.withAdaptiveWarm(adaptiveWarm);
        if (degrees != null) plan = plan.withDegrees(degrees);
        plan = plan.withConfirmation(confirm > 0 ? confirm : plan.confirmRounds(), seed);
        List<SourceStudy> studies = run(plan, System.out);
        if (json != null) {
            Files.writeString(json, Report.json(plan, studies));
            System.out.println("wrote " + json);
        }
    }

    private static double positiveSeconds(String v) {
        try {
            double d = Double.parseDouble(v.trim());
            if (d > 0 && d <= 3600) return d;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option --seconds: '" + v + "' is not a number of seconds above 0 and at most 3600");
    }

    private static int rounds(String v) {
        try {
            int k = Integer.parseInt(v.trim());
            if (k >= 1 && k <= 100) return k;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option --confirm: '" + v + "' is not a whole number of rounds from 1 to 100");
    }

    /** {@code --degrees}: static degrees, comma-separated, ascending, each from 1 to 1,000,000. */
    static List<Integer> degrees(String v) {
        List<Integer> list = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            int d;
            try {
                d = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                d = 0;
            }
            if (d < 1 || d > 1_000_000) {
                throw new IllegalArgumentException("option --degrees: '" + part.trim() + "' in '" + v
                        + "' is not a whole number of records per frame from 1 to 1000000");
            }
            if (!list.isEmpty() && d <= list.get(list.size() - 1)) {
                throw new IllegalArgumentException("option --degrees: '" + v + "' must be ascending without repeats ("
                        + d + " after " + list.get(list.size() - 1) + ")");
            }
            list.add(d);
        }
        return list;
    }

    private static long seed(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option --seed: '" + v + "' is not a whole number");
        }
    }

    static Plan fullPlan(double seconds) {
        List<Integer> degrees = new ArrayList<>();
        for (int d = 1; d <= 1024; d *= 2) degrees.add(d);
        return new Plan(List.of(Source.continuous(100), Source.continuous(1000), Source.continuous(10_000), Source.changing(1000),
                Source.bursty(1000, 1000, 10)), degrees, 0.5, seconds, ADAPTIVE_WARM_SECONDS, 3, CONFIRM_ROUNDS, SEED, defaultFrameBytes());
    }

    /** Proves the harness runs end to end: two sources, three degrees, sub-second runs, 2 confirmation rounds. */
    static Plan quickPlan() {
        return new Plan(List.of(Source.continuous(1000), Source.changing(200)), List.of(1, 32, 1024), 0.2, 0.4, 0.4, 1, 2, SEED,
                defaultFrameBytes());
    }

    private static int defaultFrameBytes() {
        return Integer.parseInt(ConfigKey.FRAME_BYTES.defaultValue());
    }

    /**
     * One source's study: the sweep's rows (static degree groups, fill, adaptive, adaptive:wall), the
     * best and runner-up groups selected on it, and the confirmation rounds.
     */
    record SourceStudy(Source source, List<Result> sweep, Confirmation confirmation) {
        /** The sweep's row of {@code packing} (a group's label for static degrees). */
        Result sweepRow(String packing) {
            return sweep.stream().filter(r -> r.packing().equals(packing)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no sweep row " + packing));
        }
    }

    static List<SourceStudy> run(Plan plan, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("sonde-packing-");
        try {
            out.printf(Locale.ROOT, "packing study: static degrees %s, fill, adaptive; sweep of %d round(s), %.1f s measured per configuration"
                    + " and round after %.1f s (adaptive: %.1f s, --adaptive-warm), then %d confirmation round(s) (seed %d);"
                    + " one JVM: source thread, writer thread, collector over 127.0.0.1; expected about %.0f min%n",
                    plan.degrees(), plan.rounds(), plan.seconds(), plan.warmSeconds(), plan.adaptiveWarmSeconds(), plan.confirmRounds(),
                    plan.seed(), plan.expectedSeconds() / 60);
            Runner runner = (source, packing, warm, seconds) -> measure(source, packing, warm, seconds, dir);
            // warm-up for the JIT (not reported)
            runner.run(plan.sources().get(0), "static:16", plan.warmSeconds(), plan.seconds());
            return study(plan, runner, out);
        } finally {
            Folders.deleteTree(dir);
        }
    }

    /** The study of every source of {@code plan} with {@code runner}; prints each source's tables to {@code out}. */
    static List<SourceStudy> study(Plan plan, Runner runner, PrintStream out) throws Exception {
        Random order = new Random(plan.seed());
        List<SourceStudy> studies = new ArrayList<>();
        for (Source s : plan.sources()) {
            SourceStudy study = studySource(s, plan, runner, order);
            out.println();
            out.println(s.name + ": " + s.describe());
            out.println(Report.sweep(plan, study));
            out.println(Report.confirmation(plan, study));
            studies.add(study);
        }
        return studies;
    }

    private static SourceStudy studySource(Source s, Plan plan, Runner runner, Random order) throws Exception {
        List<String> configs = plan.sweepConfigurations();
        // rounds interleave the configurations, so a change of the machine's load hits all of them alike
        Map<String, List<Run>> runs = new HashMap<>();
        for (String c : configs) runs.put(c, new ArrayList<>());
        for (int round = 0; round < plan.rounds(); round++) {
            for (String c : configs) {
                runs.get(c).add(runner.run(s, c, c.startsWith("adaptive") ? plan.adaptiveWarmSeconds() : plan.warmSeconds(), plan.seconds()));
            }
        }
        List<DegreeGroup> groups = DegreeGroup.of(s, plan.degrees(), plan.frameBytes());
        List<Result> groupRows = new ArrayList<>();
        for (DegreeGroup g : groups) {
            List<Run> pooled = new ArrayList<>();
            for (int d : g.degrees()) pooled.addAll(runs.get("static:" + d));
            groupRows.add(median(pooled, -1, -1).withPacking(g.label()));
        }
        int bestAt = 0;
        int secondAt = -1;
        for (int i = 1; i < groupRows.size(); i++) {
            if (groupRows.get(i).eventsPerSecond() > groupRows.get(bestAt).eventsPerSecond()) {
                secondAt = bestAt;
                bestAt = i;
            } else if (secondAt < 0 || groupRows.get(i).eventsPerSecond() > groupRows.get(secondAt).eventsPerSecond()) {
                secondAt = i;
            }
        }
        DegreeGroup best = groups.get(bestAt);
        int[] near = convergenceRange(best);
        List<Result> sweep = new ArrayList<>(groupRows);
        for (String c : configs.subList(plan.degrees().size(), configs.size())) {
            sweep.add(c.startsWith("adaptive") ? median(runs.get(c), near[0], near[1]) : median(runs.get(c), -1, -1));
        }
        Confirmation confirmation = Confirmation.run(s, best, secondAt < 0 ? null : groups.get(secondAt), plan.confirmRounds(),
                plan.warmSeconds(), plan.adaptiveWarmSeconds(), plan.seconds(), runner, order);
        return new SourceStudy(s, sweep, confirmation);
    }

    /** The degree indexes that count as the best group's neighbourhood for convergence: the group's, or every larger one if capped. */
    static int[] convergenceRange(DegreeGroup g) {
        // floor(log2): the ladder index at or below the degree (--degrees may name degrees between two ladder steps)
        int low = 31 - Integer.numberOfLeadingZeros(g.degrees().get(0));
        int high = g.capped() ? 31 : 31 - Integer.numberOfLeadingZeros(g.degrees().get(g.degrees().size() - 1));
        return new int[] {low, high};
    }

    /**
     * The round with the median throughput (its figures as measured), with the range of the
     * throughput over all rounds and the median convergence time towards degree indexes
     * [{@code low}, {@code high}] (low -1: none).
     */
    static Result median(List<Run> rounds, int low, int high) {
        List<Run> sorted = new ArrayList<>(rounds);
        sorted.sort(java.util.Comparator.comparingDouble(r -> r.result().eventsPerSecond()));
        double convergence = Double.NaN;
        if (low >= 0) {
            double[] c = rounds.stream().mapToDouble(r -> r.convergenceSeconds(low, high)).map(v -> Double.isNaN(v) ? Double.MAX_VALUE : v)
                    .sorted().toArray();
            convergence = c[c.length / 2] == Double.MAX_VALUE ? Double.NaN : c[c.length / 2];
        }
        return sorted.get(sorted.size() / 2).result().withSpread(sorted.get(0).result().eventsPerSecond(),
                sorted.get(sorted.size() - 1).result().eventsPerSecond(), convergence);
    }

    /**
     * One configuration: start a collector and a monitor, let the source run {@code warm} seconds,
     * then measure for {@code askedSeconds} (the changing source: whole periods,
     * {@link Source#measuredSeconds}); the packing degree is sampled all along.
     */
    static Run measure(Source source, String packing, double warm, double askedSeconds, Path dir) throws Exception {
        double seconds = source.measuredSeconds(askedSeconds); // the changing source: whole periods
        ReceivingHandler handler = new ReceivingHandler();
        Path out = Files.createTempDirectory(dir, "run-");
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                List.of(handler), Map.of()), ReceiverListener.none(), line -> System.err.println("  collector: " + line));
        Map<String, String> cfg = new HashMap<>();
        cfg.put("writer", "tcp");
        cfg.put("tcp.host", "127.0.0.1");
        cfg.put("tcp.port", String.valueOf(collector.port()));
        cfg.put("policy", "block-forever"); // nothing dropped: a full ring makes the source wait
        // The study measures packing: without this, acknowledged delivery's window (tcp.resend.mib of
        // unacknowledged frames per batched force of the archive) caps every large degree at the same
        // rate (about 160 MB/s on this machine's disk, measured 2026-11-25) and hides the packing effect.
        cfg.put("tcp.ack", "false");
        cfg.put("packing", packing);
        Monitor m = MonitorAccess.start(SondeConfig.of(cfg));
        Source.Producer producer = null;
        try {
            Pipeline pipeline = MonitorAccess.pipeline(m);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long t0 = System.nanoTime();
            producer = source.start(m);
            List<double[]> trace = new ArrayList<>();
            long measureStart = t0 + (long) (warm * 1e9);
            long end = measureStart + (long) (seconds * 1e9);
            long e0 = 0, f0 = 0, b0 = 0, cpu0 = 0, sender0 = 0;
            boolean measuring = false;
            double degreeSum = 0;
            long degreeSamples = 0;
            LatencyHistogram latencies = new LatencyHistogram();
            while (true) {
                long now = System.nanoTime();
                int degree = pipeline.packing().recordsPerFrame();
                trace.add(new double[] {(now - t0) / 1e9, degree});
                if (!measuring && now - measureStart >= 0) {
                    measuring = true;
                    handler.measureInto(latencies);
                    e0 = handler.events.get();
                    f0 = handler.frames.get();
                    b0 = handler.bytes.get();
                    cpu0 = processCpuNanos();
                    sender0 = threads.getThreadCpuTime(producer.getId()) + threads.getThreadCpuTime(pipeline.writerThreadId());
                    measureStart = now;
                }
                if (measuring) {
                    degreeSum += Math.min(degree, 1 << 20);
                    degreeSamples++;
                }
                if (measuring && now - end >= 0) {
                    handler.measureInto(null);
                    long records = handler.events.get() - e0;
                    long frames = handler.frames.get() - f0;
                    long bytes = handler.bytes.get() - b0;
                    long cpu = processCpuNanos() - cpu0;
                    long sender = threads.getThreadCpuTime(producer.getId()) + threads.getThreadCpuTime(pipeline.writerThreadId()) - sender0;
                    double s = (now - measureStart) / 1e9;
                    double events = (double) records / source.recordsPerEvent();
                    Result r = new Result(source.name, packing, s, (long) events, events / s, bytes / s / 1e6, frames / s,
                            frames == 0 ? 0 : (double) records / frames, latencies.quantileNanos(0.5), latencies.quantileNanos(0.99),
                            latencies.maxNanos(), events == 0 ? 0 : cpu / events, events == 0 ? 0 : sender / events,
                            packing.startsWith("adaptive") ? degreeSum / Math.max(1, degreeSamples) : Double.NaN, Double.NaN,
                            events / s, events / s);
                    return new Run(r, trace.stream().mapToDouble(t -> t[0]).toArray(), trace.stream().mapToInt(t -> (int) t[1]).toArray());
                }
                Thread.sleep(10);
            }
        } finally {
            if (producer != null) producer.stopAndJoin();
            m.close();
            collector.stop();
            Folders.deleteTree(out);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
