package io.sonde.lab.load;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Open Poisson arrivals: requests at exponentially distributed intervals (seeded) with mean
 * 1/{@code ratePerSecond}, spread round robin over {@code connections} connections, whatever
 * the replies do. The first {@code warmupRequests} are not measured; {@code warmupRequests +
 * measuredRequests} are sent in all. Bounded in time: after {@code maxTime} the run ends with the
 * replies it has. Response times run from the send to the reply, so a sender that falls behind
 * its schedule (an overloaded machine) delays arrivals rather than inflating response times.
 *
 * @param ratePerSecond mean arrival rate
 * @param connections connections (each with its own reader thread)
 * @param servant the servant work each request asks for
 * @param seed seed of the arrival and demand stream
 * @param warmupRequests first requests not measured
 * @param measuredRequests requests measured, at least 1
 * @param maxTime bound on the whole run
 */
public record OpenWorkload(double ratePerSecond, int connections, ServantSpec servant, long seed, int warmupRequests,
        int measuredRequests, Duration maxTime) {

    /** Validates the numbers; messages name the setting. */
    public OpenWorkload {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("arrival rate must be a positive number per second, got " + ratePerSecond);
        }
        if (connections < 1 || connections > 10_000) {
            throw new IllegalArgumentException("connections must be between 1 and 10000, got " + connections);
        }
        if (warmupRequests < 0 || measuredRequests < 1) {
            throw new IllegalArgumentException("warm-up must be >= 0 and measured requests >= 1");
        }
        if (maxTime.isNegative() || maxTime.isZero()) {
            throw new IllegalArgumentException("time bound must be positive, got " + maxTime);
        }
    }

    /** Sends the arrivals to the server on 127.0.0.1:{@code port} and returns the measured times. */
    public ResponseTimes run(int port) throws IOException, InterruptedException {
        int total = warmupRequests + measuredRequests;
        AtomicLongArray sent = new AtomicLongArray(total);
        AtomicLongArray replied = new AtomicLongArray(total);
        AtomicInteger replies = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long start = System.nanoTime();
        long deadline = start + maxTime.toNanos();
        int readTimeout = (int) Math.min(Integer.MAX_VALUE, maxTime.toMillis() + 10_000);
        List<LabConnection> conns = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                LabConnection c = new LabConnection(port, readTimeout);
                conns.add(c);
                Thread t = new Thread(() -> {
                    try {
                        while (replies.get() < total && System.nanoTime() < deadline) {
                            int id = (int) c.receive();
                            if (id < 0 || id >= total || sent.get(id) == 0) {
                                throw new IOException("reply for unknown request " + id);
                            }
                            replied.set(id, System.nanoTime());
                            replies.incrementAndGet();
                        }
                    } catch (IOException e) {
                        if (replies.get() < total && System.nanoTime() < deadline && !c.isClosed()) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }, "lab-reader-" + i);
                t.setDaemon(true);
                readers.add(t);
                t.start();
            }
            SplittableRandom random = new SplittableRandom(seed);
            double meanGapNanos = 1e9 / ratePerSecond;
            long next = System.nanoTime();
            for (int id = 0; id < total && failure.get() == null; id++) {
                next += Math.round(meanGapNanos * -Math.log(1.0 - random.nextDouble()));
                for (long now = System.nanoTime(); now < next; now = System.nanoTime()) {
                    LockSupport.parkNanos(next - now);
                }
                if (System.nanoTime() >= deadline) {
                    break;
                }
                LabConnection c = conns.get(id % connections);
                long demand = servant.draw(random);
                synchronized (c) {
                    sent.set(id, System.nanoTime());
                    c.send(id, servant.wireKind(), demand);
                }
            }
            // Readers block in a read until their connection closes: wait for the count here.
            while (replies.get() < total && failure.get() == null && System.nanoTime() < deadline
                    && readers.stream().anyMatch(Thread::isAlive)) {
                Thread.sleep(2);
            }
        } finally {
            conns.forEach(LabConnection::close);
        }
        Throwable f = failure.get();
        if (f != null) {
            throw new IOException("open workload at " + ratePerSecond + "/s: " + f.getMessage(), f);
        }
        long[] rt = new long[measuredRequests];
        int n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int id = warmupRequests; id < total; id++) {
            long r = replied.get(id);
            if (r != 0) {
                rt[n++] = r - sent.get(id);
                first = Math.min(first, sent.get(id));
                last = Math.max(last, r);
            }
        }
        return new ResponseTimes(java.util.Arrays.copyOf(rt, n), n == 0 ? 0 : last - first);
    }
}
