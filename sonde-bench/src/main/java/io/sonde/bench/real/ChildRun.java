package io.sonde.bench.real;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One child JVM running {@code io.sonde.bench.real.app.RealApp} on one workload: launched with the
 * given JVM options and nothing but the program's jar and the library on its class path, watched
 * until it exits, and killed ("cut") when it runs past the time limit or when the monitoring
 * output it writes grows past the byte limit.
 */
public final class ChildRun {

    /**
     * What the run left.
     *
     * @param launchMicros epoch microseconds just before the JVM was started
     * @param report       the program's {@code key=value} report; empty when it wrote none
     * @param exitStatus   the JVM's exit status, or -1 when it was killed
     * @param cut          why the run was killed, or null
     * @param log          the JVM's stdout and stderr
     */
    record Outcome(long launchMicros, Map<String, String> report, int exitStatus, String cut, Path log) {

        /** A report value in seconds from microseconds since the launch, or null. */
        Double secondsSinceLaunch(String key) {
            String v = report.get(key);
            return v == null ? null : (Long.parseLong(v) - launchMicros) / 1e6;
        }

        /** A report value in seconds from nanoseconds, or null. */
        Double seconds(String key) {
            String v = report.get(key);
            return v == null ? null : Long.parseLong(v) / 1e9;
        }

        /** The last lines of the log, for error messages. */
        String tail() {
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                return String.join(" | ", lines.subList(Math.max(0, lines.size() - 6), lines.size())) + " (log: " + log + ")";
            } catch (IOException e) {
                return "(no log: " + log + ")";
            }
        }
    }

    private static final String MAIN = "io.sonde.bench.real.app.RealApp";

    private ChildRun() {}

    /**
     * Runs the workload and waits for it.
     *
     * @param watched the folder the monitoring output goes to (its size is capped), or null
     */
    static Outcome run(Path java, List<String> jvmOptions, Map<String, String> environment, List<Path> classPath,
            RealWorkload workload, long size, Path runDir, Path watched, int timeoutSeconds, long maxBytes)
            throws IOException {
        Files.createDirectories(runDir);
        Path report = runDir.resolve("report.txt");
        Path log = runDir.resolve("jvm.log");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-Xmx1g");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()));
        command.add(MAIN);
        command.addAll(List.of("--workload", workload.label(), "--ops", Long.toString(size), "--report", report.toString()));
        Files.writeString(runDir.resolve("command.txt"), String.join(" ", command) + "\n" + environment + "\n");
        ProcessBuilder builder = new ProcessBuilder(command).directory(runDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Instant launch = Instant.now();
        Process process = builder.start();
        long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
        String cut = null;
        try {
            while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() > deadline) {
                    cut = "killed after the run timeout of " + timeoutSeconds + " s";
                } else if (watched != null && sizeOf(watched) > maxBytes) {
                    cut = "killed when its output passed " + maxBytes + " bytes";
                }
                if (cut != null) {
                    process.destroyForcibly();
                    process.waitFor();
                    break;
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the run in " + runDir);
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (cut == null && Files.isRegularFile(report)) {
            for (String line : Files.readAllLines(report, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return new Outcome(launch.getEpochSecond() * 1_000_000L + launch.getNano() / 1_000, values,
                cut == null ? process.exitValue() : -1, cut, log);
    }

    /** Bytes in the regular files under {@code dir} (0 when it does not exist). */
    public static long sizeOf(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (java.nio.file.NoSuchFileException gone) {
                    return 0; // deleted while walking (a rotated or bounded recording)
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
