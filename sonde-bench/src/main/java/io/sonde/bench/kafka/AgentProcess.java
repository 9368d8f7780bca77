package io.sonde.bench.kafka;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One agent of the Kafka benchmark in a JVM of its own (one monitor per JVM): starts a sonde-core
 * pipeline with the TCP writer to the edge collector, prints {@code ready}, waits for a line on
 * stdin, makes calls from N threads for S seconds, closes (everything written, trailer sent) and
 * prints {@code written <records>}.
 */
final class AgentProcess {
    private AgentProcess() {}

    /** Child entry point: PORT AGENT-ID THREADS SECONDS. */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port", String.valueOf(port),
                "agent.id", args[1], "policy", "block-forever")));
        int threads = Integer.parseInt(args[2]);
        double seconds = Double.parseDouble(args[3]);
        MethodProbe outer = m.methodProbe("bench.Shop.order", "()V");
        MethodProbe inner = m.methodProbe("bench.Db.query", "()V");
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                while (System.nanoTime() < deadline) {
                    for (int i = 0; i < 256; i++) {
                        boolean o = outer.enter();
                        inner.exit(inner.enter());
                        outer.exit(o);
                    }
                }
            }, "bench-agent-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        m.close();
        System.out.println("written " + m.counters().written());
    }

    /** What the agents did: when they were told to go ({@link System#nanoTime()}) and the records they wrote. */
    record Run(long startNanos, long written) {}

    /**
     * Runs one agent JVM per id, starts them together once all are ready (JVM start-up is not
     * timed), and returns the records they wrote in total once all have ended.
     */
    static Run runAll(int port, List<UUID> ids, int threads, double seconds, Path logs) throws IOException, InterruptedException {
        Files.createDirectories(logs);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> ps = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        try {
            for (UUID id : ids) {
                Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), AgentProcess.class.getName(), String.valueOf(port),
                        id.toString(), String.valueOf(threads), String.valueOf(seconds))
                        .redirectError(logs.resolve(id + ".err").toFile()).start();
                ps.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (int i = 0; i < ps.size(); i++) {
                expect(outs.get(i), "ready", ids.get(i), logs);
            }
            long start = System.nanoTime();
            for (Process p : ps) {
                OutputStream in = p.getOutputStream();
                in.write("go\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            }
            long written = 0;
            for (int i = 0; i < ps.size(); i++) {
                written += Long.parseLong(expect(outs.get(i), "written ", ids.get(i), logs).substring("written ".length()).trim());
                if (!ps.get(i).waitFor(60, TimeUnit.SECONDS)) {
                    throw new IOException("agent " + ids.get(i) + " did not exit");
                }
            }
            return new Run(start, written);
        } finally {
            ps.forEach(Process::destroyForcibly);
        }
    }

    private static String expect(BufferedReader out, String prefix, UUID id, Path logs) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IOException("agent " + id + " ended before printing '" + prefix.trim() + "' (stderr: " + logs.resolve(id + ".err") + ")");
    }
}
