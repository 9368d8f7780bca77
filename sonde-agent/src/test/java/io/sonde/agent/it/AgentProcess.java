package io.sonde.agent.it;

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
 * A real JVM running the sample application, optionally with the agent, with its stdout lines
 * queued for the test and its stderr kept. Every wait is bounded; {@link #close()} kills it.
 */
final class AgentProcess implements AutoCloseable {

    static final Path AGENT_JAR = Path.of(System.getProperty("test.sonde.agent.jar", "target/sonde-agent.jar"));
    static final String TEST_CLASSES = System.getProperty("test.sonde.classes", "target/test-classes");
    static final String SAMPLE = "io.sonde.agent.sample.SampleApp";

    private final Process process;
    private final BlockingQueue<String> out = new LinkedBlockingQueue<>();
    private final StringBuffer err = new StringBuffer();
    private final Writer in;

    private AgentProcess(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
    }

    /** Starts the sample scenario with the default JDK; {@code agentOptions} null = no agent. */
    static AgentProcess start(String agentOptions, String scenario) throws IOException {
        return start(Path.of(System.getProperty("java.home")), agentOptions, scenario);
    }

    /** Starts the sample scenario on the given JDK. */
    static AgentProcess start(Path javaHome, String agentOptions, String scenario) throws IOException {
        return start(javaHome, agentOptions, TEST_CLASSES, scenario);
    }

    /** Starts the sample with a class path of its own and any scenario arguments. */
    static AgentProcess start(Path javaHome, String agentOptions, String classPath, String... scenario)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaHome.resolve("bin").resolve("java").toString());
        cmd.add("-Xmx128m");
        if (agentOptions != null) {
            cmd.add("-javaagent:" + AGENT_JAR.toAbsolutePath() + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(SAMPLE);
        cmd.addAll(List.of(scenario));
        return new AgentProcess(new ProcessBuilder(cmd).start());
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

    long pid() {
        return process.pid();
    }

    /** Waits (at most 30 s) for a stdout line starting with {@code prefix} and returns it. */
    String awaitLine(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String line = out.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive() && out.isEmpty()) {
                break;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' from the sample app; stderr:\n" + err);
    }

    /** Sends one line to the app's stdin. */
    void send(String line) throws IOException {
        in.write(line + "\n");
        in.flush();
    }

    /** Waits (at most 60 s) for the process to end and returns its exit code. */
    int awaitExit() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("sample app did not end within 60 s; stderr:\n" + err);
        }
        return process.exitValue();
    }

    /** Everything the app printed on stderr so far. */
    String stderr() {
        return err.toString();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
