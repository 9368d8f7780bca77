package io.sonde.bench.mooms;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.management.remote.JMXServiceURL;

/**
 * {@code sonde bench mooms}: the MOOMS experiment (section 6.1 of the MOOMS paper) with Sonde's
 * live layer and, side by side in the same run, with JMX notifications. See docs/benchmarks.md.
 *
 * <p>Two JVMs: the server ({@link MoomsServer}) runs and times the requests; this JVM drives it and
 * holds every observer and JMX listener, each on its own loopback connection, so the readers' work
 * is not counted in the server's process (on this 2-core machine they still share the CPUs, which
 * is part of what is measured: a real observer also runs somewhere).
 */
public final class MoomsBenchmark {
    private MoomsBenchmark() {}

    /**
     * Runs the benchmark (options: {@link MoomsOptions#USAGE}, docs/benchmarks.md), prints the table
     * and writes the JSON when {@code --json} is given.
     *
     * @throws IllegalArgumentException for a bad option, naming it
     */
    public static void main(String[] args) throws Exception {
        MoomsOptions o = MoomsOptions.parse(args);
        List<Configuration> configs = configurations(o);
        double loadStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Files.createDirectories(o.out);
        List<Measurement> all = new ArrayList<>();
        String jdk;
        long started = System.nanoTime();
        try (ServerProcess server = ServerProcess.start(o.work, "1g", o.out.resolve("server.log"))) {
            jdk = server.ready().get("jdk").replace('_', ' ');
            System.out.printf("MOOMS benchmark: %d configurations x %d rounds, work %d iterations per request, server JDK %s%n",
                    configs.size(), o.rounds, o.work, jdk);
            Runner runner = new Runner(server, o);
            // JIT warm-up of every path (results dropped): the plain and idle requests, Sonde's
            // active path and the endpoint's writer, JMX's notification path and connector.
            for (Configuration c : List.of(Configuration.none(), Configuration.idle(), Configuration.sonde("immediate", o.flush(), 1),
                    Configuration.jmx(1))) {
                runner.measure(c, -1);
            }
            for (int round = 0; round < o.rounds; round++) {
                List<Configuration> order = new ArrayList<>(configs);
                if (round % 2 == 1) Collections.reverse(order); // drift hits the configurations alike
                all.addAll(round(runner, order, round));
            }
        }
        double loadEnd = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        MoomsReport report = new MoomsReport(o, jdk, all, loadStart, loadEnd, (System.nanoTime() - started) / 1e9);
        System.out.print(report.table());
        if (o.json != null) {
            if (o.json.toAbsolutePath().getParent() != null) Files.createDirectories(o.json.toAbsolutePath().getParent());
            Files.writeString(o.json, report.json());
            System.out.println("JSON: " + o.json);
        }
    }

    /**
     * One round: the baseline (none) before the first configuration, between any two and after the
     * last, so each configuration is compared with the un-instrumented server measured right before
     * and right after it, and each inner baseline measurement with its two neighbours (that spread
     * is the noise).
     */
    private static List<Measurement> round(Runner runner, List<Configuration> order, int round) throws Exception {
        List<Measurement> nones = new ArrayList<>();
        List<Measurement> measured = new ArrayList<>();
        nones.add(runner.measure(Configuration.none(), round));
        for (Configuration c : order) {
            Measurement m = runner.measure(c, round);
            measured.add(m);
            System.out.printf("  round %d  %-26s %9.1f ns/request%s%n", round + 1, c.name(), m.meanNs(), m.received().length == 0 ? ""
                    : String.format("  received %d of %d, lost %d", m.receivedTotal(), m.expectedPerReader() * m.received().length,
                            m.lostTotal()));
            nones.add(runner.measure(Configuration.none(), round));
        }
        return withBaselines(nones, measured);
    }

    /**
     * Gives each measurement its baseline: {@code measured[i]} ran between {@code nones[i]} and
     * {@code nones[i + 1]} and gets their mean; each baseline measurement gets the mean of its two
     * neighbours (the first and the last their one neighbour).
     */
    static List<Measurement> withBaselines(List<Measurement> nones, List<Measurement> measured) {
        if (nones.size() != measured.size() + 1 || nones.size() < 2) {
            throw new IllegalArgumentException(nones.size() + " baseline runs around " + measured.size() + " measurements");
        }
        List<Measurement> result = new ArrayList<>();
        for (int i = 0; i < nones.size(); i++) {
            Measurement.Baseline before = Measurement.Baseline.of(nones.get(i > 0 ? i - 1 : i + 1));
            Measurement.Baseline after = i + 1 < nones.size() ? Measurement.Baseline.of(nones.get(i + 1)) : before;
            result.add(nones.get(i).withBaseline(Measurement.Baseline.mean(before, after)));
        }
        for (int i = 0; i < measured.size(); i++) {
            result.add(measured.get(i).withBaseline(Measurement.Baseline.mean(Measurement.Baseline.of(nones.get(i)),
                    Measurement.Baseline.of(nones.get(i + 1)))));
        }
        return result;
    }

    /** Everything but the baseline, which {@link #round} measures between them. */
    static List<Configuration> configurations(MoomsOptions o) {
        List<Configuration> list = new ArrayList<>();
        list.add(Configuration.idle());
        for (String q : o.qos) {
            for (int n : o.observers) {
                if (n > 0) list.add(Configuration.sonde(q, o.flush(), n)); // 0 observers is idle, measured anyway
            }
        }
        for (int n : o.jmxListeners) list.add(Configuration.jmx(n));
        return list;
    }

    /** Measures one configuration: readers connected, the server's run, the drain, the readers closed. */
    private static final class Runner {
        private final ServerProcess server;
        private final MoomsOptions o;
        private final int sondePort;
        private final String token;
        private final JMXServiceURL jmxUrl;

        Runner(ServerProcess server, MoomsOptions o) throws Exception {
            this.server = server;
            this.o = o;
            Map<String, String> ready = server.ready();
            this.sondePort = Integer.parseInt(ready.get("sonde-port"));
            this.token = ready.get("token");
            this.jmxUrl = new JMXServiceURL(ready.get("jmx-url"));
        }

        Measurement measure(Configuration c, int round) throws Exception {
            try (Subscribers readers = connect(c)) {
                int timeout = (int) (60 + 2 * o.maxMs / 1000);
                Map<String, String> r = server.send(String.join(" ", "run", c.workload(), Integer.toString(c.sessions()),
                        Integer.toString(o.warmup), Integer.toString(o.requests), Long.toString(o.maxMs)), "result", timeout);
                long requests = Long.parseLong(r.get("requests"));
                long drainStart = System.nanoTime();
                awaitDrain(readers, Measurement.EVENTS_PER_REQUEST * requests);
                long drainMillis = (System.nanoTime() - drainStart) / 1_000_000;
                Map<String, String> stats = server.send("stats", "stats", 30);
                Long serverLost = c.system().equals("sonde") ? Long.parseLong(stats.get("lost")) : null;
                return new Measurement(c, round, requests, Long.parseLong(r.get("timed")), Long.parseLong(r.get("nanos")),
                        Long.parseLong(r.get("block-median-ns")), snapshot(readers.received), snapshot(readers.lost), serverLost,
                        drainMillis, Long.parseLong(r.get("thread-cpu-nanos")),
                        Long.parseLong(stats.get("threads-cpu-nanos")), null);
            }
        }

        private Subscribers connect(Configuration c) throws Exception {
            return switch (c.system()) {
                case "sonde" -> SondeObservers.connect(sondePort, token, c.readers(), c.deliveryQos());
                case "jmx" -> JmxListeners.connect(jmxUrl, c.readers());
                default -> Subscribers.none();
            };
        }

        /**
         * Waits until every reader received or was told it lost every event, or until nothing
         * arrived for a while: what is missing then is reported as missing, never hidden.
         */
        private void awaitDrain(Subscribers readers, long expected) throws InterruptedException {
            long quietLimit = o.quick ? 2_000_000_000L : 5_000_000_000L;
            long hardLimit = System.nanoTime() + 60_000_000_000L;
            long lastProgress = readers.progress();
            long lastChange = System.nanoTime();
            while (!readers.allAccountedFor(expected)) {
                Thread.sleep(5);
                long p = readers.progress();
                long now = System.nanoTime();
                if (p != lastProgress) {
                    lastProgress = p;
                    lastChange = now;
                } else if (now - lastChange > quietLimit || now > hardLimit) {
                    return;
                }
            }
        }

        private static long[] snapshot(java.util.concurrent.atomic.AtomicLong[] counters) {
            long[] a = new long[counters.length];
            for (int i = 0; i < a.length; i++) a[i] = counters[i].get();
            return a;
        }
    }
}
