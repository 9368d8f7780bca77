package io.sonde.lab.sweep;

import io.sonde.lab.server.LabServerMain;
import io.sonde.lab.server.ServerStrategy;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A lab server in its own JVM ({@link LabServerMain}), optionally under the Sonde agent, so that
 * the load generator's threads do not share the server's JVM. Every wait is bounded; closing ends
 * the server by closing its stdin (a normal exit, so the agent writes its trailer) and kills it if
 * it does not end within 30 s.
 */
public final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final int port;
    private final StringBuffer stderr = new StringBuffer();

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the server and waits (up to 60 s) until it listens.
     *
     * @param classPath class path holding io.sonde.lab.server (e.g. this JVM's)
     * @param agentJar the Sonde agent jar, or null to run without the agent
     * @param agentOptions the agent's options (with {@code agentJar})
     */
    public static ServerProcess start(String classPath, ServerStrategy strategy, int poolSize, Path agentJar, String agentOptions)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:+UseSerialGC"); // one GC thread: its CPU stays small and visible as the server's
        if (agentJar != null) {
            cmd.add("-javaagent:" + agentJar.toAbsolutePath() + (agentOptions == null || agentOptions.isEmpty() ? "" : "=" + agentOptions));
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(LabServerMain.class.getName());
        cmd.add("--strategy");
        cmd.add(strategy.spelling());
        cmd.add("--pool");
        cmd.add(Integer.toString(poolSize));
        Process p = new ProcessBuilder(cmd).start();
        ServerProcess sp;
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuffer err = new StringBuffer();
        pump(new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8)), err);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int port = -1;
        try {
            while (port < 0 && System.nanoTime() < deadline) {
                if (!out.ready()) {
                    if (!p.isAlive()) {
                        break;
                    }
                    Thread.sleep(10);
                    continue;
                }
                String line = out.readLine();
                if (line == null) {
                    break;
                }
                if (line.startsWith("LISTENING ")) {
                    port = Integer.parseInt(line.substring("LISTENING ".length()).trim());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (port < 0) {
            p.destroyForcibly();
            throw new IOException("the lab server (" + strategy.spelling() + ") did not start: " + err.toString().trim());
        }
        pump(out, new StringBuffer()); // keep its stdout drained
        sp = new ServerProcess(p, port);
        sp.stderr.append(err);
        return sp;
    }

    private static void pump(BufferedReader r, StringBuffer into) {
        Thread t = new Thread(() -> {
            try (r) {
                char[] buf = new char[1024];
                for (int n; (n = r.read(buf)) >= 0; ) {
                    if (into.length() < 64_000) {
                        into.append(buf, 0, n);
                    }
                }
            } catch (IOException e) {
                // process gone
            }
        }, "lab-server-pump");
        t.setDaemon(true);
        t.start();
    }

    /** The port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The server JVM's total CPU time so far (user + system) in nanoseconds, or -1 if unknown. */
    public long cpuNanos() {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    @Override
    public void close() throws IOException {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IOException("the lab server did not stop within 30 s; killed");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
