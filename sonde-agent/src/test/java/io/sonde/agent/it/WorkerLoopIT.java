package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.instrument.WorkerLoops;
import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.Format;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker-loop rule on a real server from Maven Central: Javalin 7 on Jetty 12, instrumented
 * including its own packages (so Jetty's pool runner, acceptor and selector loops match the
 * include pattern), under a bounded load on 127.0.0.1. Every request is a trace of its own and
 * no trace spans the load.
 */
class WorkerLoopIT {

    private static final int REQUESTS = 200;

    @TempDir
    Path dir;

    /** A trace as the test needs it: its root method, its thread, first and last time, and the requests in it. */
    private static final class Trace {
        String root;
        String thread;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int hellos;

        @Override
        public String toString() {
            return root + " on " + thread + ": " + hellos + " request(s), " + (last - first) / 1_000_000 + " ms";
        }
    }

    private static final String STARTUP_REMINDER = "io.javalin.jetty.JettyServer._init_$lambda$0";

    @Test
    void everyRequestIsItsOwnTraceAndNoTraceSpansTheRun() throws Exception {
        String options = "include=io.javalin.*;org.eclipse.jetty.*;io.sonde.agent.sample.JavalinApp$Handlers.*"
                + ",file.dir=" + dir + ",policy=block-forever"; // the test counts every record: no bounded wait
        String[] load;
        try (AgentJvm p = AgentJvm.start(Path.of(System.getProperty("java.home")), options,
                System.getProperty("java.class.path"), "io.sonde.agent.sample.JavalinApp", String.valueOf(REQUESTS), "4")) {
            load = p.awaitLine("load ").split(" ");
            p.awaitLine("done");
            assertThat(p.awaitExit()).as("exit code; stderr: %s", p.stderr()).isZero();
            // Javalin's optional Jackson support refers to classes not on this class path: woven all the same
            assertThat(p.stderr().lines().filter(l -> l.startsWith("sonde-agent:"))).isEmpty();
        }
        long loadStart = Long.parseLong(load[1]);
        long loadEnd = Long.parseLong(load[2]);

        List<Trace> traces = new ArrayList<>();
        Set<String> rootNames = new HashSet<>();
        Map<Long, Trace> current = new HashMap<>(); // by thread id
        try (SondeReader r = SondeLogs.scan(dir).get(0).open()) {
            while (r.next()) {
                byte t = r.type();
                if (t == Format.TRACE_START) {
                    Trace tr = new Trace();
                    tr.thread = r.threadName();
                    traces.add(tr);
                    current.put(r.threadId(), tr);
                } else if (t >= Format.ENTER && t <= Format.EXIT_EXCEPTION_CPU) {
                    Trace tr = current.get(r.threadId());
                    if (tr.root == null) {
                        tr.root = r.probeName();
                        rootNames.add(tr.root);
                    }
                    tr.first = Math.min(tr.first, r.time());
                    tr.last = Math.max(tr.last, r.time());
                    if ((t == Format.ENTER || t == Format.ENTER_CPU) && r.probeName().endsWith("$Handlers.hello")) {
                        tr.hellos++;
                    }
                }
            }
            assertThat(r.trailer()).isNotNull();
            assertThat(r.trailer().droppedTotal()).isZero();
        }
        // the Jetty loops matched the include pattern, yet none is probed, let alone a trace root
        for (String loop : WorkerLoops.all()) {
            assertThat(rootNames).noneMatch(n -> n.equals(loop));
        }
        // one trace per request: the handler ran REQUESTS + 1 (warm-up) times, each in a trace of its own
        List<Trace> withRequests = traces.stream().filter(tr -> tr.hellos > 0).toList();
        assertThat(withRequests).as("traces with requests").hasSize(REQUESTS + 1).allSatisfy(tr -> assertThat(tr.hellos).isEqualTo(1));
        assertThat(withRequests).as("requests are served by the server's pool threads")
                .allMatch(tr -> tr.thread.startsWith("JettyServerThreadPool"));
        // none spans the load, but for Javalin's start-up reminder: a thread of its own that sleeps 5 s and
        // then warns if the server was never started (a real execution of a woven method, not a loop)
        assertThat(traces).as("traces open from before the load to after it").noneMatch(
                tr -> tr.first < loadStart && tr.last > loadEnd && !tr.root.equals(STARTUP_REMINDER));
        assertThat(traces.size()).as("traces (Jetty's own work is many small ones)").isGreaterThan(REQUESTS);
    }
}
