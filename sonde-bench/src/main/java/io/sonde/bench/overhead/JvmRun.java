package io.sonde.bench.overhead;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import io.sonde.bench.overhead.framework.RunSetup;

/**
 * One JVM run of the benchmark application: launches {@code java}, waits (bounded), and reads the
 * timings and the report the application wrote.
 */
final class JvmRun {

    /**
     * What one run produced.
     *
     * @param timings      measured call durations in ns (all threads, warm-up excluded)
     * @param startupMicros JVM launch to the first line of {@code main}, in microseconds
     * @param heapUsedBytes heap used after a full GC at the end
     * @param threadNames  live threads at the end
     */
    record Outcome(long[] timings, long startupMicros, long heapUsedBytes, List<String> threadNames) {}

    private JvmRun() {}

    /**
     * Runs the application.
     *
     * @throws IOException when the JVM fails, times out, or writes no results; the message points
     *                     at the run's log file
     */
    static Outcome run(Path java, RunSetup setup, Path appJar, Path runDir,
            int threads, long calls, int depth, long methodTime, int timeoutSeconds) throws IOException {
        List<String> jvmOptions = setup.jvmOptions();
        Map<String, String> env = setup.environment();
        Path go = runDir.resolve("go");
        Path timings = runDir.resolve("timings.bin");
        Path report = runDir.resolve("report.txt");
        Path log = runDir.resolve("jvm.log");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-Xms1g");
        command.add("-Xmx1g");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(appJar.toString());
        command.add("io.sonde.bench.overhead.app.BenchmarkApp");
        command.addAll(List.of("--calls", Long.toString(calls), "--depth", Integer.toString(depth),
                "--threads", Integer.toString(threads), "--method-time", Long.toString(methodTime),
                "--timings", timings.toString(), "--report", report.toString()));
        if (setup.holdsStart()) {
            command.addAll(List.of("--await-go", go.toString()));
        }
        Files.writeString(runDir.resolve("command.txt"), String.join(" ", command) + "\n" + env + "\n");
        ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Instant launch = Instant.now();
        Process process = builder.start();
        try {
            if (setup.holdsStart()) {
                try {
                    awaitReady(process, runDir.resolve("go.ready"), timeoutSeconds, log);
                    setup.started(process.pid());
                } catch (IOException | RuntimeException e) {
                    process.destroyForcibly();
                    java.io.StringWriter trace = new java.io.StringWriter();
                    e.printStackTrace(new java.io.PrintWriter(trace));
                    Files.writeString(runDir.resolve("harness-error.txt"), trace.toString());
                    throw new IOException("preparing the started JVM failed: " + e + " (details: "
                            + runDir.resolve("harness-error.txt") + ")", e);
                } finally {
                    Files.writeString(go, "go\n");
                }
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new IOException("JVM run timed out after " + timeoutSeconds + " s (log: " + log + ")");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the JVM run");
        }
        String problem = setup.problemIn(Files.readString(log, StandardCharsets.UTF_8));
        if (problem != null) {
            throw new IOException(problem + " (log: " + log + ")");
        }
        if (process.exitValue() != 0) {
            throw new IOException("JVM run exited with status " + process.exitValue() + ": " + tail(log));
        }
        if (!Files.isRegularFile(timings) || !Files.isRegularFile(report)) {
            throw new IOException("JVM run wrote no results: " + tail(log));
        }
        Map<String, String> props = readReport(report);
        long mainEntry = Long.parseLong(props.get("main_entry_epoch_us"));
        long launchMicros = launch.getEpochSecond() * 1_000_000L + launch.getNano() / 1_000;
        List<String> names = new ArrayList<>();
        int count = Integer.parseInt(props.get("thread_count"));
        for (int i = 0; i < count; i++) {
            names.add(props.getOrDefault("thread." + i, "?"));
        }
        long[] measured = readTimings(timings);
        Files.delete(timings); // can be large; the aggregate is what we keep
        return new Outcome(measured, mainEntry - launchMicros, Long.parseLong(props.get("heap_used_bytes")), names);
    }

    /** Waits until the application has entered main and written its ready file. */
    private static void awaitReady(Process process, Path ready, int timeoutSeconds, Path log)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        while (!Files.exists(ready)) {
            if (!process.isAlive()) {
                throw new IOException("JVM exited before main: " + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("JVM did not reach main within " + timeoutSeconds + " s");
            }
            Thread.sleep(5);
        }
    }

    private static Map<String, String> readReport(Path report) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
        for (String line : lines) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                map.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        for (String key : List.of("main_entry_epoch_us", "heap_used_bytes", "thread_count")) {
            if (!map.containsKey(key)) {
                throw new IOException(report + ": missing " + key);
            }
        }
        return map;
    }

    private static long[] readTimings(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            int threads = in.readInt();
            int perThread = in.readInt();
            long[] all = new long[Math.multiplyExact(threads, perThread)];
            for (int i = 0; i < all.length; i++) {
                all[i] = in.readLong();
            }
            return all;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            int from = Math.max(0, lines.size() - 8);
            return String.join(" | ", lines.subList(from, lines.size())) + " (log: " + log + ")";
        } catch (IOException e) {
            return "(no log: " + log + ")";
        }
    }
}
