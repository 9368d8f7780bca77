package io.sonde.bench.mooms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The harness's handle on the {@link MoomsServer} JVM: starts it, sends commands and reads the
 * {@code key=value} answers, each with a time limit so a hung server fails the benchmark with a
 * message instead of hanging it.
 */
final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> answers = new ArrayBlockingQueue<>(64);
    private final Path log;
    private final Map<String, String> ready;

    private ServerProcess(Process process, Path log) throws IOException {
        this.process = process;
        this.log = log;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readAnswers, "mooms-server-answers");
        reader.setDaemon(true);
        reader.start();
        this.ready = answer("ready", 60);
    }

    /** Starts the server JVM with the harness's class path; its stderr goes to {@code log}. */
    static ServerProcess start(int work, String heap, Path log) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heap, "-Xmx" + heap, "-Djava.rmi.server.hostname=127.0.0.1", "-Djava.awt.headless=true",
                "-cp", System.getProperty("java.class.path"), MoomsServer.class.getName(), Integer.toString(work)));
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        try {
            return new ServerProcess(p, log);
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** Values of the start line: {@code sonde-port}, {@code jmx-url}, {@code token}, {@code jdk}. */
    Map<String, String> ready() {
        return ready;
    }

    /** Sends one command and returns the values of its answer, which must be of {@code kind}. */
    Map<String, String> send(String command, String kind, int timeoutSeconds) throws IOException {
        commands.write(command + "\n");
        commands.flush();
        return answer(kind, timeoutSeconds);
    }

    private Map<String, String> answer(String kind, int timeoutSeconds) throws IOException {
        String line;
        try {
            line = answers.poll(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for the server");
        }
        if (line == null) {
            throw new IOException("MOOMS server: no '" + kind + "' answer within " + timeoutSeconds + " s"
                    + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + "; its log: " + log);
        }
        String[] parts = line.split(" ");
        if (!parts[1].equals(kind)) {
            throw new IOException("MOOMS server answered '" + line + "' where '" + kind + "' was expected; its log: " + log);
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 2; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) values.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        return values;
    }

    private void readAnswers() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("mooms ")) answers.put(line);
            }
            answers.put("mooms exited");
        } catch (IOException | InterruptedException ended) {
            // the server is gone; a waiting answer() reports it
        }
    }

    @Override
    public void close() throws IOException {
        try {
            commands.write("quit\n");
            commands.flush();
        } catch (IOException alreadyGone) {
            // it exited on its own
        }
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
