package io.sonde.agent.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The application of the fault tests, in a JVM of its own under the agent. It knows nothing about
 * Sonde; it counts the monitored calls it makes and prints {@code made R} with R = the data records
 * the agent must account for (each call of {@link Target#call} is one ENTER and one EXIT), then
 * {@code done}. Scenarios (first argument):
 *
 * <ul>
 *   <li>{@code calls N}: N calls on the main thread;
 *   <li>{@code stream}: prints {@code ready}, then calls in batches (200 calls, then 1 ms of sleep)
 *       until stdin says {@code stop} (at most 120 s);
 *   <li>{@code churn THREADS CONCURRENT CALLS}: THREADS short-lived threads, CONCURRENT at a time
 *       (started together behind a latch), each making CALLS calls; also prints {@code failed-threads F} (threads that died of an
 *       error, e.g. OutOfMemoryError if rings of dead threads were never released).
 * </ul>
 */
public final class FaultApp {

    private FaultApp() {}

    /** The monitored method (the tests include {@code io.sonde.agent.sample.FaultApp$Target.*}). */
    public static final class Target {
        private Target() {}

        static long call(long x) {
            return x * 31 + 7;
        }
    }

    /** Sum of the results, printed so the calls cannot be optimised away. */
    private static final AtomicLong SINK = new AtomicLong();

    public static void main(String[] args) throws Exception {
        long calls = switch (args[0]) {
            case "calls" -> calls(Long.parseLong(args[1]));
            case "stream" -> stream();
            case "churn" -> churn(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        };
        System.out.println("made " + 2 * calls);
        System.out.println("sink " + SINK.get());
        System.out.println("done");
        System.out.flush();
    }

    private static long calls(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += Target.call(i);
        }
        SINK.addAndGet(s);
        return n;
    }

    private static long stream() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null && !line.trim().equals("stop")) {
                    // wait for stop
                }
            } catch (Exception e) {
                // stdin closed: stop as well
            }
            stop.set(true);
        }, "stdin-reader");
        reader.setDaemon(true);
        reader.start();
        System.out.println("ready");
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // never outlive a broken test
        long n = 0;
        while (!stop.get() && System.nanoTime() < deadline) {
            n += calls(200);
            Thread.sleep(1);
        }
        return n;
    }

    private static long churn(int threads, int concurrent, int callsEach) throws InterruptedException {
        AtomicLong failed = new AtomicLong();
        long n = 0;
        for (int started = 0; started < threads; ) {
            List<Thread> batch = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1); // the batch calls at the same time
            for (int k = 0; k < concurrent && started < threads; k++, started++) {
                Thread t = new Thread(() -> {
                    awaitQuietly(go);
                    calls(callsEach);
                }, "churn-" + started);
                t.setUncaughtExceptionHandler((th, e) -> {
                    failed.incrementAndGet();
                    System.err.println(th.getName() + " died: " + e);
                });
                batch.add(t);
            }
            batch.forEach(Thread::start);
            go.countDown();
            for (Thread t : batch) {
                t.join();
            }
            n += (long) batch.size() * callsEach;
        }
        System.out.println("failed-threads " + failed.get());
        return n;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
