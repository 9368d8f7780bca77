package io.sonde.bench.mooms;

import io.sonde.api.Sonde;
import io.sonde.api.live.LiveTree;
import io.sonde.api.live.ObserveService;
import io.sonde.api.live.ObserverSession;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The monitored server of the MOOMS benchmark, run in its own JVM by {@link MoomsBenchmark}. It holds
 * the three versions of the workload at once (none, Sonde, JMX), Sonde's observe endpoint and a
 * remote JMX connector, both on 127.0.0.1, and runs the requests itself in a closed loop when the
 * harness asks, timing them here. Observers and JMX listeners live in the harness's JVM.
 *
 * <p>Line protocol on stdin/stdout (answers start with {@code mooms }):
 * <ul>
 *   <li>at start: {@code mooms ready sonde-port=P jmx-url=U token=T jdk=V}</li>
 *   <li>{@code run WORKLOAD SESSIONS WARMUP REQUESTS MAX_MS}: waits until exactly SESSIONS observer
 *       sessions are open (so "idle" is measured with none), runs WARMUP untimed requests, then up to
 *       REQUESTS timed ones in blocks of {@value #BLOCK} (stopping early after MAX_MS); answers
 *       {@code mooms result requests=ALL timed=N nanos=T block-median-ns=M thread-cpu-nanos=C}
 *       (C: the request thread's CPU time over the timed requests)</li>
 *   <li>{@code stats}: {@code mooms stats sessions=N lost=L threads-cpu-nanos=C}: events the open sessions
 *       dropped (queue full), and the CPU time every Java thread of the server used since the first
 *       timed request of the last run (asked after the readers drained, so Sonde's dispatchers and
 *       endpoint threads and JMX's connector threads have done their work)</li>
 *   <li>{@code quit}</li>
 * </ul>
 * A failed command answers {@code mooms error MESSAGE} and the server goes on.
 */
public final class MoomsServer {
    /** Requests per timed block. */
    static final int BLOCK = 100;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final LiveTree live;
    private final Map<String, Workload> workloads = new LinkedHashMap<>();
    /** Strictly increasing over the whole run, so every request changes the attribute. */
    private long nextValue = 1;
    /** CPU time per Java thread when the last run's timed requests began. */
    private Map<Long, Long> cpuAtStart = Map.of();

    private MoomsServer(LiveTree live) {
        this.live = live;
    }

    /** Arguments: the business work per request (iterations). */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) throw new IllegalArgumentException("usage: MoomsServer WORK_ITERATIONS");
        int work = Integer.parseInt(args[0]);
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but answers on the harness's channel
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);

        LiveTree live = Sonde.live();
        MoomsServer server = new MoomsServer(live);
        server.add(new PlainWorkload(work));
        server.add(new SondeWorkload(live, work));
        server.add(new JmxWorkload(ManagementFactory.getPlatformMBeanServer(), work));
        try (ObserveService observe = live.observe(0, token);
                JmxEndpoint jmx = JmxEndpoint.start(ManagementFactory.getPlatformMBeanServer())) {
            out.println("mooms ready sonde-port=" + observe.port() + " jmx-url=" + jmx.url() + " token=" + token
                    + " jdk=" + System.getProperty("java.vm.name").replace(' ', '_') + "_" + System.getProperty("java.version"));
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
                String answer;
                try {
                    answer = server.serve(line.trim().split("\\s+"));
                } catch (Exception | AssertionError e) {
                    answer = "error " + (e + "").replace('\n', ' ');
                }
                out.println("mooms " + answer);
            }
        }
    }

    private void add(Workload w) {
        workloads.put(w.name(), w);
    }

    private String serve(String[] cmd) throws Exception {
        switch (cmd[0]) {
            case "run": {
                if (cmd.length != 6) throw new IllegalArgumentException("run WORKLOAD SESSIONS WARMUP REQUESTS MAX_MS, got " + Arrays.toString(cmd));
                Workload w = workloads.get(cmd[1]);
                if (w == null) throw new IllegalArgumentException("unknown workload '" + cmd[1] + "', known: " + workloads.keySet());
                awaitSessions(Integer.parseInt(cmd[2]));
                return run(w, Integer.parseInt(cmd[3]), Integer.parseInt(cmd[4]), Long.parseLong(cmd[5]) * 1_000_000L);
            }
            case "stats": {
                long lost = 0;
                for (ObserverSession s : live.sessions()) lost += s.overflowCount();
                return "stats sessions=" + live.sessions().size() + " lost=" + lost + " threads-cpu-nanos=" + threadsCpuSince(cpuAtStart);
            }
            default:
                throw new IllegalArgumentException("unknown command '" + cmd[0] + "'");
        }
    }

    /** Sessions close asynchronously after their connection ends; wait for the count to settle. */
    private void awaitSessions(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (live.sessions().size() != expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(live.sessions().size() + " observer sessions open, expected " + expected);
            }
            Thread.sleep(10);
        }
    }

    private String run(Workload w, int warmup, int requests, long maxNanos) throws Exception {
        for (int i = 0; i < warmup; i++) w.request(nextValue++);
        long[] blocks = new long[(requests + BLOCK - 1) / BLOCK];
        int n = 0;
        int timed = 0;
        cpuAtStart = threadsCpu();
        long threadCpuStart = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long now = start;
        while (timed < requests && now - start < maxNanos) {
            int k = Math.min(BLOCK, requests - timed);
            long t0 = now;
            for (int i = 0; i < k; i++) w.request(nextValue++);
            now = System.nanoTime();
            blocks[n++] = (now - t0) / k;
            timed += k;
        }
        long threadCpu = THREADS.getCurrentThreadCpuTime() - threadCpuStart;
        long[] sorted = Arrays.copyOf(blocks, n);
        Arrays.sort(sorted);
        return "result requests=" + (warmup + timed) + " timed=" + timed + " nanos=" + (now - start)
                + " block-median-ns=" + (n == 0 ? 0 : sorted[n / 2]) + " thread-cpu-nanos=" + threadCpu + " sink=" + (w.sink() & 1);
    }

    /** CPU time of every live Java thread, by thread id. */
    private static Map<Long, Long> threadsCpu() {
        Map<Long, Long> m = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t >= 0) m.put(id, t);
        }
        return m;
    }

    /**
     * CPU time the live Java threads used since {@code start} (a thread born since counts whole).
     * Per thread, with nanosecond clocks: the process's CPU time is counted in 10 ms ticks, too coarse
     * here. Not included: GC and JIT threads (not Java threads), and threads that ended meanwhile.
     */
    private static long threadsCpuSince(Map<Long, Long> start) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : threadsCpu().entrySet()) sum += e.getValue() - start.getOrDefault(e.getKey(), 0L);
        return sum;
    }
}
