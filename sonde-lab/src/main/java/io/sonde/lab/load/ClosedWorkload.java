package io.sonde.lab.load;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Closed clients (thesis 4.4): each of {@code clients} threads has its own connection and at most
 * one request outstanding; after a reply it thinks (constant or exponential, seeded) and sends the
 * next. The first {@code warmupRequests} completions (over all clients) are discarded, the next
 * {@code measuredRequests} are measured, and then every client stops, so no measured request saw
 * fewer competitors than {@code clients} (the cool-down the thesis filtered out). Bounded in count
 * and in time: after {@code maxTime} the run ends with what it has measured.
 *
 * @param clients closed clients, at least 1
 * @param servant the servant work each request asks for
 * @param thinkMeanNanos mean think time between a reply and the next request (0: none)
 * @param thinkExponential exponential think times; otherwise constant
 * @param seed seed of the clients' random streams (client i has its own)
 * @param warmupRequests completions discarded at the start
 * @param measuredRequests completions measured, at least 1
 * @param maxTime bound on the whole run
 */
public record ClosedWorkload(int clients, ServantSpec servant, long thinkMeanNanos, boolean thinkExponential, long seed,
        int warmupRequests, int measuredRequests, Duration maxTime) {

    /** Validates the numbers; messages name the setting. */
    public ClosedWorkload {
        if (clients < 1 || clients > 10_000) {
            throw new IllegalArgumentException("clients must be between 1 and 10000, got " + clients);
        }
        if (thinkMeanNanos < 0 || warmupRequests < 0 || measuredRequests < 1) {
            throw new IllegalArgumentException("think time and warm-up must be >= 0 and measured requests >= 1");
        }
        if (maxTime.isNegative() || maxTime.isZero()) {
            throw new IllegalArgumentException("time bound must be positive, got " + maxTime);
        }
    }

    /** Runs the clients against the server on 127.0.0.1:{@code port} and returns the measured times. */
    public ResponseTimes run(int port) throws IOException, InterruptedException {
        long[] rt = new long[measuredRequests];
        AtomicInteger completions = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        long deadline = start + maxTime.toNanos();
        long[] window = {start, start};
        java.util.concurrent.atomic.AtomicLong clientCpu = new java.util.concurrent.atomic.AtomicLong();
        java.lang.management.ThreadMXBean cpuClock = java.lang.management.ManagementFactory.getThreadMXBean();
        int readTimeout = (int) Math.min(Integer.MAX_VALUE, maxTime.toMillis() + 10_000);
        List<LabConnection> conns = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                conns.add(new LabConnection(port, readTimeout));
            }
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                LabConnection c = conns.get(i);
                SplittableRandom random = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (i + 1)));
                long idBase = (long) i << 40;
                Thread t = new Thread(() -> {
                    long cpu0 = cpuClock.getCurrentThreadCpuTime();
                    try {
                        clientLoop(c, random, idBase, completions, rt, window, deadline);
                    } catch (IOException | RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                    clientCpu.addAndGet(cpuClock.getCurrentThreadCpuTime() - cpu0);
                }, "lab-client-" + i);
                t.setDaemon(true);
                threads.add(t);
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000 + readTimeout));
            }
        } finally {
            conns.forEach(LabConnection::close);
        }
        Throwable f = failure.get();
        if (f != null) {
            throw new IOException("closed workload with " + clients + " clients: " + f.getMessage(), f);
        }
        int measured = Math.max(0, Math.min(measuredRequests, completions.get() - warmupRequests));
        long[] got = java.util.Arrays.copyOf(rt, measured);
        int all = Math.max(1, completions.get());
        return new ResponseTimes(got, measured == 0 ? 0 : window[1] - window[0], clientCpu.get() / 1e6 / all);
    }

    private void clientLoop(LabConnection c, SplittableRandom random, long idBase, AtomicInteger completions,
            long[] rt, long[] window, long deadline) throws IOException {
        int total = warmupRequests + measuredRequests;
        for (long n = 0; completions.get() < total && System.nanoTime() < deadline; n++) {
            long id = idBase + n;
            long demand = servant.draw(random);
            long sent = System.nanoTime();
            c.send(id, servant.wireKind(), demand);
            long got = c.receive();
            long done = System.nanoTime();
            if (got != id) {
                throw new IOException("reply for request " + got + " while waiting for " + id);
            }
            int k = completions.getAndIncrement();
            if (k == warmupRequests - 1) {
                synchronized (window) {
                    window[0] = done; // the measurement starts when the warm-up ends
                }
            }
            if (k >= warmupRequests && k < total) {
                rt[k - warmupRequests] = done - sent;
                synchronized (window) {
                    window[1] = Math.max(window[1], done);
                }
            }
            if (thinkMeanNanos > 0) {
                long think = thinkExponential ? Math.round(thinkMeanNanos * -Math.log(1.0 - random.nextDouble())) : thinkMeanNanos;
                LockSupport.parkNanos(think);
            }
        }
    }
}
