package io.sonde.bench.analysis;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.input.LogSource;
import io.sonde.format.write.LogFileWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Analysis throughput and memory benchmark: generates a log of {@code --records N} data records
 * (several threads, nested traces over {@code --probes} operations, CPU times on half of the
 * threads, segment files of at most 512 MiB), then analyses it in a child JVM with a fixed heap ({@code --heap}, default 256m) and
 * reports records per second and the child's peak resident memory (VmHWM from /proc). Prints the
 * figures and writes them as JSON to {@code --json FILE}.
 *
 * <pre>
 * ./sonde bench analysis --records 100000000 --json analysis.json
 * </pre>
 */
public final class AnalysisBenchmark {
    private static final long SEGMENT_BYTES = 512L << 20;
    private static final int THREADS = 8;
    private static final int DEFAULT_PROBES = 40;

    private AnalysisBenchmark() {}

    public static void main(String[] args) throws Exception {
        long records = 10_000_000;
        Path json = null;
        Path dir = null;
        String heap = "256m";
        boolean keep = false;
        int probes = DEFAULT_PROBES;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i].replace("_", ""));
                case "--json" -> json = Path.of(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--heap" -> heap = args[++i];
                case "--keep" -> keep = true;
                case "--probes" -> probes = Integer.parseInt(args[++i]);
                case "--child" -> {
                    child(Path.of(args[++i]));
                    return;
                }
                case "--child-reader" -> {
                    childReader(Path.of(args[++i]));
                    return;
                }
                default -> {
                    System.err.println("usage: sonde bench analysis --records N [--probes 40] [--json FILE] [--dir DIR] [--heap 256m] [--keep]");
                    System.exit(2);
                }
            }
        }
        boolean temp = dir == null;
        if (temp) dir = Files.createTempDirectory("sonde-analysis-bench");
        else Files.createDirectories(dir);
        try {
            long g0 = System.nanoTime();
            long bytes = generate(dir, records, probes);
            double genSeconds = (System.nanoTime() - g0) / 1e9;
            System.out.printf(Locale.ROOT, "generated %d data records, %.1f MiB, in %.1f s%n", records, bytes / 1048576.0, genSeconds);
            // Baseline first: the format reader alone over the same files, in the same kind of JVM.
            String[] raw = runChild(heap, "--child-reader", dir);
            double readerRate = Long.parseLong(raw[0]) / (Long.parseLong(raw[1]) / 1e9);
            System.out.printf(Locale.ROOT, "format reader alone: %.0f records/s%n", readerRate);
            String[] f = runChild(heap, "--child", dir);
            long analysed = Long.parseLong(f[0]);
            double seconds = Long.parseLong(f[1]) / 1e9;
            long hwm = Long.parseLong(f[2]);
            long executions = Long.parseLong(f[3]);
            double rate = analysed / seconds;
            System.out.printf(Locale.ROOT, "analysed %d records (%d executions) in %.1f s: %.0f records/s; child heap %s, peak RSS %.1f MiB%n",
                    analysed, executions, seconds, rate, heap, hwm / 1048576.0);
            if (json != null) {
                String out = String.format(Locale.ROOT,
                        "{\n  \"benchmark\": \"analysis\",\n  \"dataRecords\": %d,\n  \"recordsAnalysed\": %d,\n  \"executions\": %d,\n"
                                + "  \"logBytes\": %d,\n  \"generateSeconds\": %.3f,\n  \"analyzeSeconds\": %.3f,\n  \"recordsPerSecond\": %.0f,\n"
                                + "  \"readerOnlyRecordsPerSecond\": %.0f,\n  \"operations\": %d,\n"
                                + "  \"childHeap\": \"%s\",\n  \"peakRssBytes\": %d,\n  \"java\": \"%s\",\n  \"processors\": %d\n}\n",
                        records, analysed, executions, bytes, genSeconds, seconds, rate, readerRate, probes, heap, hwm, Runtime.version(),
                        Runtime.getRuntime().availableProcessors());
                Files.writeString(json, out);
                System.out.println("wrote " + json);
            }
        } finally {
            if (temp && !keep) deleteTree(dir);
        }
    }

    /** Runs this class in a child JVM with the given heap and mode; returns the fields of its RESULT line. */
    private static String[] runChild(String heap, String mode, Path dir) throws IOException, InterruptedException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap, "-Xms" + heap,
                "-XX:+UseSerialGC", "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
                AnalysisBenchmark.class.getName(), mode, dir.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("RESULT ")) result = line.substring(7);
                else System.out.println("child: " + line);
            }
        }
        int rc = p.waitFor();
        if (rc != 0 || result == null) throw new IllegalStateException("benchmark child (" + mode + ") failed with exit code " + rc);
        return result.split(" ");
    }

    /** In the child JVM: iterate every record with the format reader only; print "RESULT records nanos". */
    private static void childReader(Path dir) throws IOException {
        long t0 = System.nanoTime();
        long n = 0;
        long sink = 0;
        for (io.sonde.format.read.AgentLog log : io.sonde.format.read.SondeLogs.scan(dir)) {
            try (io.sonde.format.read.SondeReader r = log.open()) {
                while (r.next()) {
                    n++;
                    sink += r.type();
                }
            }
        }
        System.out.println("RESULT " + n + " " + (System.nanoTime() - t0) + " " + (sink & 1));
    }

    /** In the child JVM: analyse and print "RESULT records nanos peakRssBytes executions". */
    private static void child(Path dir) throws IOException {
        long t0 = System.nanoTime();
        AnalysisResult r = Analyzer.run(new LogSource(List.of(dir)), new AnalysisOptions());
        long nanos = System.nanoTime() - t0;
        if (r.partial()) throw new IllegalStateException("generated log unreadable: " + r.problems());
        System.out.println("RESULT " + r.counters().records + " " + nanos + " " + peakRss() + " " + r.counters().executions);
    }

    /** VmHWM of this process in bytes (Linux), or -1. */
    static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Writes {@code records} data records (ENTER/EXIT) into {@code dir}: each of {@link #THREADS}
     * threads runs traces of a root with a pseudo-random call tree (depth at most 6); threads take
     * turns in slices of one trace, like a writer draining per-thread buffers.
     *
     * @return bytes written
     */
    public static long generate(Path dir, long records) throws IOException {
        return generate(dir, records, DEFAULT_PROBES);
    }

    /** Like {@link #generate(Path, long)} with {@code probes} operations. */
    public static long generate(Path dir, long records, int probes) throws IOException {
        UUID agent = new UUID(0x5eed_0000_0000_4000L, 0x8000_0000_0000_0001L);
        long wall = 1_763_800_000_000_000_000L;
        long mono = 1_000_000_000L;
        LogFileWriter w = new LogFileWriter(dir, agent, 4242, "bench-host", wall, mono);
        for (int p = 0; p < probes; p++) w.probe(p + 1, "bench.Service" + (p % 7) + ".op" + p, "()V");
        for (int t = 0; t < THREADS; t++) w.thread(100 + t, (t < THREADS / 2 ? "worker-" : "io-") + t);
        w.flushFrame(); // the registry frame first, as the file writer does
        long[] cpu = new long[THREADS];
        long time = mono;
        long written = 0;
        long trace = 1;
        long seed = 42;
        int[] stack = new int[8];
        while (written < records) {
            for (int t = 0; t < THREADS && written < records; t++) {
                long tid = 100 + t;
                boolean withCpu = t % 2 == 0;
                w.traceStart(tid, trace++, 0, -1);
                int depth = 0;
                // A random walk: push while shallow, pop more as it deepens; the root closes the trace.
                do {
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    int r = (int) (seed >>> 33);
                    boolean push = depth == 0 || (depth < 6 && (r & 7) < 4) && written + depth + 2 < records;
                    time += 200 + (r & 1023);
                    cpu[t] += 100 + (r & 511);
                    if (push) {
                        int probe = 1 + Math.floorMod(r >>> 4, probes);
                        stack[depth++] = probe;
                        if (withCpu) w.enterCpu(tid, probe, time, cpu[t]);
                        else w.enter(tid, probe, time);
                    } else {
                        int probe = stack[--depth];
                        if (withCpu) w.exitCpu(tid, probe, time, cpu[t]);
                        else w.exit(tid, probe, time);
                    }
                    written++;
                } while (depth > 0);
            }
            if (w.segmentBytes() > SEGMENT_BYTES) w.rollSegment();
        }
        w.close();
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(AnalysisBenchmark::size).sum();
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path p : all) Files.deleteIfExists(p);
    }
}
