package io.sonde.dashboard;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Small logs recorded through the real API for the dashboard's tests. */
public final class TestLogs {
    /** Requests per thread in {@link #record}. */
    public static final int REQUESTS = 40;
    /** Threads in {@link #record}. */
    public static final int THREADS = 2;
    /** Every this many requests the query fails (and so does the request). */
    public static final int FAIL_EVERY = 7;

    private TestLogs() {}

    /**
     * Records {@link #THREADS} threads of {@link #REQUESTS} requests each: {@code app.Service.handle}
     * calling {@code app.Dao.query} and {@code app.Cache.get}, with CPU time; every {@link
     * #FAIL_EVERY}th query throws and fails its request.
     */
    public static void record(Path dir) throws InterruptedException {
        Map<String, String> s = new HashMap<>();
        s.put("writer", "file");
        s.put("file.dir", dir.toString());
        s.put("cpu.time", "on");
        s.put("policy", "block-forever"); // every record counted
        try (Monitor m = MonitorAccess.start(SondeConfig.of(s))) {
            MethodProbe handle = m.methodProbe("app.Service.handle", "()V");
            MethodProbe query = m.methodProbe("app.Dao.query", "(I)I");
            MethodProbe cache = m.methodProbe("app.Cache.get", "(I)I");
            Thread[] threads = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                threads[t] = new Thread(() -> {
                    for (int i = 0; i < REQUESTS; i++) request(handle, query, cache, i);
                }, "worker-" + t);
                threads[t].start();
            }
            for (Thread t : threads) t.join();
        }
    }

    private static void request(MethodProbe handle, MethodProbe query, MethodProbe cache, int i) {
        boolean h = handle.enter();
        try {
            boolean c = cache.enter();
            spin(20_000 + (i % 5) * 10_000);
            cache.exit(c);
            boolean q = query.enter();
            try {
                spin(50_000 + (i % 3) * 40_000);
                if (i % FAIL_EVERY == FAIL_EVERY - 1) throw new IllegalStateException("query failed");
                query.exit(q);
            } catch (IllegalStateException e) {
                query.exitExceptionally(q, e);
                throw e;
            }
            handle.exit(h);
        } catch (IllegalStateException e) {
            handle.exitExceptionally(h, e);
        }
    }

    private static long sink;

    /** Busy for about {@code nanos}. */
    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) x++;
        sink += x;
    }
}
