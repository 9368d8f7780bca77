package io.sonde.bench.overhead.app;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * The application the overhead benchmark runs in its own JVM, once per run, with or without an
 * agent. Each of {@code threads} threads makes {@code calls} timed calls of
 * {@link MonitoredClass#monitoredMethod(long, int)}; the second half of each thread's calls (the
 * first half is warm-up) is written to the timings file as raw nanosecond durations for the
 * harness to aggregate.
 *
 * <p>Arguments: {@code --calls N --depth D --threads T --method-time NS --timings FILE --report FILE
 * [--await-go FILE]} (the last: wait after entering {@code main} until FILE exists).
 *
 * <p>Timings file: big-endian int thread count, int measured calls per thread, then
 * {@code threads x measured} longs (nanoseconds per call, thread by thread).
 *
 * <p>Report file: {@code key=value} lines: {@code main_entry_epoch_us} (wall clock at the first
 * line of {@code main}, to measure JVM start-up with and without the agent), {@code heap_used_bytes}
 * (after a full GC, once the measurement is over), {@code thread_count} and {@code thread.N} (the
 * live threads' names, so the agent's own threads can be told apart).
 *
 * <p>This class and {@link MonitoredClass} are packaged by the harness into a jar of their own so
 * that nothing else of Sonde is on the application's class path.
 */
public final class BenchmarkApp {

    private BenchmarkApp() {}

    /** Runs the benchmark; exit status 2 on bad arguments. */
    public static void main(String[] args) throws Exception {
        Instant mainEntry = Instant.now(); // first thing: the start-up cost is measured up to here
        long calls = 0;
        int depth = 10;
        int threads = 1;
        long methodTime = 0;
        Path timings = null;
        Path report = null;
        Path awaitGo = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--calls" -> calls = Long.parseLong(value);
                case "--depth" -> depth = Integer.parseInt(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--method-time" -> methodTime = Long.parseLong(value);
                case "--timings" -> timings = Path.of(value);
                case "--report" -> report = Path.of(value);
                case "--await-go" -> awaitGo = Path.of(value);
                default -> {
                    System.err.println("benchmark app: unknown argument '" + args[i] + "'");
                    System.exit(2);
                }
            }
            i++;
        }
        if (calls < 2 || depth < 1 || threads < 1 || timings == null || report == null) {
            System.err.println("benchmark app: needs --calls >= 2, --depth >= 1, --threads >= 1, --timings, --report");
            System.exit(2);
        }
        if (awaitGo != null) {
            awaitFile(awaitGo);
        }
        int measured = (int) (calls - calls / 2);
        long[][] perThread = new long[threads][measured];
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        final long n = calls;
        final int d = depth;
        final long mt = methodTime;
        for (int t = 0; t < threads; t++) {
            long[] out = perThread[t];
            Thread worker = new Thread(() -> runCalls(n, d, mt, out, start), "bench-worker-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        writeTimings(timings, perThread, measured);
        writeReport(report, mainEntry);
    }

    /**
     * Holds the start until the harness has prepared the running JVM (e.g. switched probes off).
     * Writes {@code GO.ready} first: the harness must not attach before the JVM is fully up (an
     * attach signal that arrives too early can kill a starting JVM).
     */
    private static void awaitFile(Path go) throws InterruptedException, IOException {
        Files.writeString(go.resolveSibling(go.getFileName() + ".ready"), "ready\n");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(go)) {
            if (System.nanoTime() > deadline) {
                System.err.println("benchmark app: no go signal " + go + " within 120 s");
                System.exit(3);
            }
            Thread.sleep(2);
        }
    }

    private static void runCalls(long calls, int depth, long methodTime, long[] out, CyclicBarrier start) {
        MonitoredClass monitored = new MonitoredClass();
        try {
            start.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        long warmUp = calls - out.length;
        long sink = 0;
        for (long i = 0; i < calls; i++) {
            long begin = System.nanoTime();
            sink += monitored.monitoredMethod(methodTime, depth);
            long end = System.nanoTime();
            if (i >= warmUp) {
                out[(int) (i - warmUp)] = end - begin;
            }
        }
        if (sink == 42) { // keeps the result alive
            System.out.print("");
        }
    }

    private static void writeTimings(Path file, long[][] perThread, int measured) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            out.writeInt(perThread.length);
            out.writeInt(measured);
            for (long[] thread : perThread) {
                for (long t : thread) {
                    out.writeLong(t);
                }
            }
        }
    }

    private static void writeReport(Path file, Instant mainEntry) throws IOException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long heapUsed = memory.getHeapMemoryUsage().getUsed();
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.add(t.getName());
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            out.println("main_entry_epoch_us=" + (mainEntry.getEpochSecond() * 1_000_000L + mainEntry.getNano() / 1_000));
            out.println("heap_used_bytes=" + heapUsed);
            out.println("thread_count=" + names.size());
            for (int i = 0; i < names.size(); i++) {
                out.println("thread." + i + "=" + names.get(i).replace('\n', ' '));
            }
        }
    }
}
