package io.sonde.agent.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link ReceiverJvmMain} process: started, its lines awaited with bounds, killed. */
final class ReceiverProcess implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer seen = new StringBuffer();
    final int port;

    private ReceiverProcess(Process process) throws InterruptedException {
        this.process = process;
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    seen.append(line).append('\n');
                    lines.add(line);
                }
            } catch (IOException e) {
                // process gone
            }
        }, "receiver-out");
        pump.setDaemon(true);
        pump.start();
        this.port = Integer.parseInt(awaitLine("port ", 30).substring(5).trim());
    }

    /** Starts a receiver archiving into {@code out} on {@code port} (0: any free port) of 127.0.0.1. */
    static ReceiverProcess start(Path out, int port) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                ReceiverJvmMain.class.getName(), out.toString(), String.valueOf(port))
                .redirectErrorStream(true)
                .start();
        try {
            return new ReceiverProcess(p);
        } catch (RuntimeException | Error | InterruptedException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** Waits at most {@code seconds} for a line starting with {@code prefix}. */
    String awaitLine(String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) return line;
        }
        throw new AssertionError("receiver printed no line starting with '" + prefix + "' within " + seconds + " s; output:\n"
                + seen);
    }

    /** SIGKILL: no shutdown, sockets reset by the kernel, files as they are. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) throw new AssertionError("receiver did not die");
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) kill();
    }
}
