package io.sonde.agent.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Test support, shared by the agent's integration tests and the CLI's attach/probes tests (through
 * sonde-agent's test-jar): a real JVM running a test application, optionally with the Sonde agent,
 * with its stdout lines queued for the test, its stderr kept and its stdin open for commands.
 * Every wait is bounded; {@link #close()} kills it.
 */
public final class AgentJvm implements AutoCloseable {

    /** The shaded agent jar (system property {@code test.sonde.agent.jar}, set by the poms). */
    public static final Path AGENT_JAR = Path.of(System.getProperty("test.sonde.agent.jar", "target/sonde-agent.jar"));

    private final Process process;
    private final BlockingQueue<String> out = new LinkedBlockingQueue<>();
    private final StringBuffer err = new StringBuffer();
    private final Writer in;

    private AgentJvm(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
    }

    /**
     * Starts {@code mainClass} with the default JDK, 128 MB of heap and the agent jar.
     *
     * @param agentOptions the agent's options; null = no agent, "" = agent without options
     */
    public static AgentJvm start(String agentOptions, String classPath, String mainClass, String... args) throws IOException {
        return start(Path.of(System.getProperty("java.home")), agentOptions, classPath, mainClass, args);
    }

    /** As {@link #start(String, String, String, String...)} on the JDK at {@code javaHome}. */
    public static AgentJvm start(Path javaHome, String agentOptions, String classPath, String mainClass, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaHome.resolve("bin").resolve("java").toString());
        cmd.add("-Xmx128m");
        if (agentOptions != null) {
            cmd.add("-javaagent:" + AGENT_JAR.toAbsolutePath() + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return new AgentJvm(new ProcessBuilder(cmd).start());
    }

    private void pump(BufferedReader r, boolean stdout) {
        Thread t = new Thread(() -> {
            try (r) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (stdout) {
                        out.add(line);
                    } else {
                        err.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // process gone
            }
        }, "pump-" + (stdout ? "out" : "err"));
        t.setDaemon(true);
        t.start();
    }

    public long pid() {
        return process.pid();
    }

    /** Waits (at most 90 s: a loaded machine starts JVMs slowly) for a stdout line starting with {@code prefix} and returns it. */
    public String awaitLine(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            String line = out.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive() && out.isEmpty()) {
                break;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the test application; stderr:\n" + err);
    }

    /** Sends one line to the application's stdin. */
    public void send(String line) throws IOException {
        in.write(line + "\n");
        in.flush();
    }

    /** Waits (at most 60 s) for the process to end and returns its exit code. */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("test application did not end within 60 s; stderr:\n" + err);
        }
        return process.exitValue();
    }

    /** Everything the application printed on stderr so far. */
    public String stderr() {
        return err.toString();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
