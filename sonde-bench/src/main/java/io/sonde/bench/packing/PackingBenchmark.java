package io.sonde.bench.packing;

import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.bench.common.Folders;
import io.sonde.bench.common.OptionArgs;
import io.sonde.collector.Collector;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Pipeline;
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

/**
 * The packing study ({@code ./sonde bench packing [--quick] [--json F] [--seconds S]}), after
 * "adaptive message packing" section 4: for each source (continuous 100, 1,000 and 10,000-byte
 * events, a source whose event size changes, a bursty source) and each packing configuration (no
 * packing = one record per frame, every static degree 2^0 .. 2^10, {@code fill}, {@code adaptive}),
 * a monitor in this JVM sends its events with the tcp writer over 127.0.0.1 to the real collector
 * (sonde-collector's receiver, one lossless decoding handler); reported: events/s, MB/s, latency
 * from the event's time stamp to its decoding at the receiver (median, p99, max), CPU per event
 * (the whole process, and the sending side: source plus writer thread), records per frame, and for
 * adaptive how long the degree took to reach the neighbourhood of the best static degree.
 */
public final class PackingBenchmark {
    private PackingBenchmark() {}

    /** One measured configuration of one source. */
    record Result(String source, String packing, double seconds, long events, double eventsPerSecond, double mbPerSecond,
            double framesPerSecond, double recordsPerFrame, long medianNanos, long p99Nanos, long maxNanos,
            double processCpuNanosPerEvent, double senderCpuNanosPerEvent, double meanDegree, double convergenceSeconds) {}

    /** What to run: sources, degrees, times. */
    record Plan(List<Source> sources, List<Integer> degrees, double warmSeconds, double seconds, double adaptiveWarmSeconds) {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path json = null;
        double seconds = -1;
        OptionArgs a = new OptionArgs(args);
        while (a.next()) {
            switch (a.option()) {
                case "--quick" -> quick = true;
                case "--json" -> json = Path.of(a.value());
                case "--seconds" -> seconds = OptionArgs.parseLong("--seconds", a.value(), 1);
                default -> throw new IllegalArgumentException("unknown option '" + a.option() + "'; options: --quick --json F --seconds S");
            }
        }
        Plan plan = quick ? quickPlan() : fullPlan(seconds > 0 ? seconds : 3);
        List<Result> results = run(plan, System.out);
        if (json != null) {
            Files.writeString(json, Report.json(plan, results));
            System.out.println("wrote " + json);
        }
    }

    static Plan fullPlan(double seconds) {
        List<Integer> degrees = new ArrayList<>();
        for (int d = 1; d <= 1024; d *= 2) degrees.add(d);
        return new Plan(List.of(Source.continuous(100), Source.continuous(1000), Source.continuous(10_000), Source.changing(1000),
                Source.bursty(1000, 1000, 10)), degrees, 1, seconds, 4);
    }

    /** Proves the harness runs end to end: two sources, three degrees, sub-second runs. */
    static Plan quickPlan() {
        return new Plan(List.of(Source.continuous(1000), Source.changing(200)), List.of(1, 32, 1024), 0.2, 0.4, 0.4);
    }

    static List<Result> run(Plan plan, java.io.PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("sonde-packing-");
        try {
            out.printf(Locale.ROOT, "packing study: static degrees %s, fill, adaptive; %.1f s measured per configuration after %.1f s"
                    + " (adaptive: %.1f s); one JVM: source thread, writer thread, collector over 127.0.0.1%n",
                    plan.degrees(), plan.seconds(), plan.warmSeconds(), plan.adaptiveWarmSeconds());
            // warm-up for the JIT (not reported)
            measure(plan.sources().get(0), "static:16", plan.warmSeconds(), plan.seconds(), dir, -1);
            List<Result> all = new ArrayList<>();
            for (Source s : plan.sources()) {
                out.println();
                out.println(s.name + ": " + s.describe());
                out.println(Report.header());
                List<Result> mine = new ArrayList<>();
                for (int d : plan.degrees()) {
                    mine.add(print(out, measure(s, "static:" + d, plan.warmSeconds(), plan.seconds(), dir, -1)));
                }
                mine.add(print(out, measure(s, "fill", plan.warmSeconds(), plan.seconds(), dir, -1)));
                int bestIndex = Integer.numberOfTrailingZeros(bestStatic(mine, plan.degrees().size()));
                mine.add(print(out, measure(s, "adaptive", plan.adaptiveWarmSeconds(), plan.seconds(), dir, bestIndex)));
                out.println(Report.verdict(mine, plan.degrees().size()));
                all.addAll(mine);
            }
            return all;
        } finally {
            Folders.deleteTree(dir);
        }
    }

    private static Result print(java.io.PrintStream out, Result r) {
        out.println(Report.row(r));
        return r;
    }

    /** The degree with the highest throughput among the first {@code n} (static) results. */
    static int bestStatic(List<Result> results, int n) {
        Result best = results.get(0);
        for (int i = 1; i < n; i++) {
            if (results.get(i).eventsPerSecond() > best.eventsPerSecond()) best = results.get(i);
        }
        return Integer.parseInt(best.packing().substring("static:".length()));
    }

    /**
     * One configuration: start a collector and a monitor, let the source run {@code warm} seconds,
     * then measure for {@code seconds}.
     *
     * @param targetIndex adaptive: the index of the best static degree (log2), for the convergence
     *     time; -1: not measured
     */
    static Result measure(Source source, String packing, double warm, double seconds, Path dir, int targetIndex) throws Exception {
        ReceivingHandler handler = new ReceivingHandler();
        Path out = Files.createTempDirectory(dir, "run-");
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                List.of(handler), Map.of()), ReceiverListener.none(), line -> System.err.println("  collector: " + line));
        Map<String, String> cfg = new HashMap<>();
        cfg.put("writer", "tcp");
        cfg.put("tcp.host", "127.0.0.1");
        cfg.put("tcp.port", String.valueOf(collector.port()));
        cfg.put("policy", "block-forever"); // nothing dropped: a full ring makes the source wait
        cfg.put("packing", packing);
        Monitor m = MonitorAccess.start(SondeConfig.of(cfg));
        Source.Producer producer = null;
        try {
            Pipeline pipeline = MonitorAccess.pipeline(m);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long t0 = System.nanoTime();
            producer = source.start(m);
            double convergence = Double.NaN;
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
                if (targetIndex >= 0 && Double.isNaN(convergence)
                        && Math.abs(Integer.numberOfTrailingZeros(Integer.highestOneBit(degree)) - targetIndex) <= 1) {
                    convergence = (now - t0) / 1e9;
                }
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
                    return new Result(source.name, packing, s, (long) events, events / s, bytes / s / 1e6, frames / s,
                            frames == 0 ? 0 : (double) records / frames, latencies.quantileNanos(0.5), latencies.quantileNanos(0.99),
                            latencies.maxNanos(), events == 0 ? 0 : cpu / events, events == 0 ? 0 : sender / events,
                            packing.equals("adaptive") ? degreeSum / Math.max(1, degreeSamples) : Double.NaN, convergence);
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
