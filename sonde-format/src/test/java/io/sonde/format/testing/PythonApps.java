package io.sonde.format.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the programs of {@code sonde-python/tests/apps/} as real Python processes with the library
 * from the repository's {@code sonde-python/src} on the path. The interpreter is {@code python3}
 * unless the system property {@code sonde.python} names another; the repository's library folder
 * is {@code ../sonde-python} (relative to the module) unless {@code sonde.python.dir} says otherwise.
 */
public final class PythonApps {
    private static final long TIMEOUT_SECONDS = 120;

    private PythonApps() {}

    /** The sonde-python folder of the repository. */
    public static Path libraryDir() {
        Path dir = Path.of(System.getProperty("sonde.python.dir", "../sonde-python")).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir.resolve("src/sonde"))) {
            throw new IllegalStateException("the Python library is not at " + dir + " (set -Dsonde.python.dir)");
        }
        return dir;
    }

    /**
     * Runs {@code tests/apps/<app>} with the given extra environment and arguments, waits for it (at
     * most two minutes) and returns its output (stdout and stderr together); fails unless it exits 0.
     */
    public static String run(String app, Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path lib = libraryDir();
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("sonde.python", "python3"));
        command.add(lib.resolve("tests/apps").resolve(app).toString());
        command.addAll(List.of(args));
        Path log = Files.createTempFile("sonde-python-", ".out");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().remove("SONDE_DIR");
        pb.environment().remove("SONDE_TCP");
        pb.environment().put("PYTHONPATH", lib.resolve("src").toString());
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start " + command.get(0) + " (the Python tests need python3 >= 3.9 on the PATH,"
                    + " or -Dsonde.python=/path/to/python): " + e.getMessage(), e);
        }
        p.getOutputStream().close();
        String output;
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(app + " did not finish within " + TIMEOUT_SECONDS + " s:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            output = Files.readString(log, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(log);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(app + " exited with " + p.exitValue() + ":\n" + output);
        }
        return output;
    }
}
