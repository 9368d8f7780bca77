package io.sonde.cli.delivery;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A class's main in its own JVM (this test class path), stdout and stderr merged and kept line by line. */
final class JvmProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer seen = new StringBuffer();

    private JvmProcess(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    seen.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process is gone
            }
        }, name + "-output");
        pump.setDaemon(true);
        pump.start();
    }

    static JvmProcess start(String name, Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return new JvmProcess(name, new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /** The first line (from now on) starting with {@code prefix}, waiting at most {@code seconds}. */
    String awaitLine(String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(50, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) return line;
            if (line == null && !process.isAlive() && lines.isEmpty()) break;
        }
        throw new AssertionError(name + " printed no line starting with '" + prefix + "' within " + seconds + " s (alive: "
                + process.isAlive() + "); output:\n" + seen);
    }

    /** Everything printed so far. */
    String output() {
        return seen.toString();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits at most {@code seconds} for the exit and returns its code. */
    int awaitExit(int seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " did not exit within " + seconds + " s; output:\n" + seen);
        }
        return process.exitValue();
    }

    /** SIGTERM. */
    void terminate() {
        process.destroy();
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook, sockets reset by the kernel, files as they are. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) throw new AssertionError(name + " did not die");
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) kill();
    }
}
