package io.sonde.collector.collect;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/** Real sonde-core pipelines with TCP writers, run as agents against a collector in this JVM. */
final class TestAgents {
    static final String[] PROBES = {"shop.Cart.add", "shop.Cart.total", "shop.Db.query", "shop.Db.commit"};

    private TestAgents() {}

    /** What one agent produced. */
    record Run(UUID agent, long produced) {}

    /**
     * Starts a monitor writing to the collector's port, runs {@code threads} threads each making
     * {@code ops} random nested calls (some exceptional), closes it (trailer sent) and returns.
     */
    static Run run(int port, long seed, int threads, int ops, Map<String, String> extra) throws InterruptedException {
        Map<String, String> settings = new HashMap<>();
        settings.put("writer", "tcp");
        settings.put("tcp.host", "127.0.0.1");
        settings.put("tcp.port", String.valueOf(port));
        settings.put("frame.bytes", "8192"); // small frames: many envelopes
        settings.put("flush.interval.ms", "5");
        settings.put("policy", "block-forever");
        settings.putAll(extra);
        Monitor m = MonitorAccess.start(io.sonde.core.config.SondeConfig.of(settings));
        try {
            MethodProbe[] probes = new MethodProbe[PROBES.length];
            for (int i = 0; i < PROBES.length; i++) {
                probes[i] = m.methodProbe(PROBES[i], "()V");
            }
            Random rnd = new Random(seed);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long s = rnd.nextLong();
                Thread w = new Thread(() -> {
                    Random r = new Random(s);
                    for (int i = 0; i < ops; i++) {
                        call(r, 0, probes);
                    }
                }, "agent-worker-" + t);
                workers.add(w);
            }
            workers.forEach(Thread::start);
            for (Thread w : workers) {
                w.join(60_000);
            }
        } finally {
            m.close();
        }
        return new Run(m.agentId(), m.counters().produced());
    }

    private static void call(Random rnd, int depth, MethodProbe[] probes) {
        MethodProbe p = probes[rnd.nextInt(probes.length)];
        boolean entered = p.enter();
        int children = depth < 4 ? rnd.nextInt(3) : 0;
        for (int c = 0; c < children; c++) {
            call(rnd, depth + 1, probes);
        }
        if (rnd.nextInt(6) == 0) {
            p.exitExceptionally(entered, new IllegalStateException("x"));
        } else {
            p.exit(entered);
        }
    }
}
