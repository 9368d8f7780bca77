package io.sonde.bench.micro;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.TraceContext;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.Qos;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.session.ObserverEndpoint;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The probe hot path. Every probe benchmark performs one monitored execution per operation: an
 * enter and an exit of the same probe, so {@code ns/op} is the cost of an enter+exit pair
 * including its two {@code System.nanoTime()} reads. The empty method body is deliberate (MooBench's
 * "method time 0"): what is measured is Sonde alone.
 *
 * <p>One monitor runs per forked JVM; JMH forks a fresh JVM per benchmark, so the states below never
 * meet.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeBenchmarks {

    /** A monitor with one probe, configured by the subclass-like parameter {@code writer}. */
    abstract static class MonitorState {
        Monitor monitor;
        MethodProbe probe;
        Path dir;

        void start(Map<String, String> settings, boolean enabled) throws IOException {
            Map<String, String> s = new HashMap<>(settings);
            s.put("policy", "block");
            monitor = Sonde.start(s);
            probe = monitor.methodProbe("io.sonde.bench.micro.Sample.work", "()V");
            probe.setEnabled(enabled);
        }

        void stop() throws IOException {
            monitor.close();
            if (dir != null) {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    @State(Scope.Benchmark)
    public static class Off extends MonitorState {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            start(Map.of("writer", "discard"), false);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            stop();
        }
    }

    @State(Scope.Benchmark)
    public static class Discard extends MonitorState {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            start(Map.of("writer", "discard"), true);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            stop();
        }
    }

    @State(Scope.Benchmark)
    public static class DiscardCpu extends MonitorState {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            start(Map.of("writer", "discard", "cpu.time", "on"), true);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            stop();
        }
    }

    @State(Scope.Benchmark)
    public static class File extends MonitorState {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            dir = Files.createTempDirectory("sonde-bench-file");
            start(Map.of("writer", "file", "file.dir", dir.toString()), true);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            stop();
        }
    }

    @State(Scope.Benchmark)
    public static class CpuClock {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    }

    /** The cost of reading the clock once: the unit the targets are expressed in. */
    @Benchmark
    public long nanotime() {
        return System.nanoTime();
    }

    /** The cost of one per-thread CPU time read, the price of {@code cpu.time=on} per record. */
    @Benchmark
    public long cputime(CpuClock c) {
        return c.threads.getCurrentThreadCpuTime();
    }

    /** A probe switched off: target at most 2 ns per execution. */
    @Benchmark
    public void off(Off s) {
        MethodProbe p = s.probe;
        boolean e = p.enter();
        p.exit(e);
    }

    /** Enter+exit encoded into the thread's ring, drained by the writer thread to the discard writer. */
    @Benchmark
    public void discard(Discard s) {
        MethodProbe p = s.probe;
        boolean e = p.enter();
        p.exit(e);
    }

    /** Like {@link #discard} with per-execution thread CPU time. */
    @Benchmark
    public void discardCpu(DiscardCpu s) {
        MethodProbe p = s.probe;
        boolean e = p.enter();
        p.exit(e);
    }

    /** Enter+exit drained to rolling binary files: target at most 1.5 x two nanoTime() calls. */
    @Benchmark
    public void file(File s) {
        MethodProbe p = s.probe;
        boolean e = p.enter();
        p.exit(e);
    }

    /**
     * A monitor (discard writer), a one-thread pool, and the benchmark thread inside a trace (a
     * request probe entered for the whole trial): the setting of a request handing work over.
     */
    @State(Scope.Thread)
    public static class Handoff extends MonitorState {
        ExecutorService pool;
        MethodProbe request;
        boolean inRequest;
        final AtomicLong done = new AtomicLong();
        long submitted;
        /** The task: one monitored execution on the pool thread, then a count the caller waits for. */
        Runnable task;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            start(Map.of("writer", "discard"), true);
            request = monitor.methodProbe("io.sonde.bench.micro.Sample.request", "()V");
            pool = Executors.newSingleThreadExecutor();
            task = () -> {
                boolean e = probe.enter();
                probe.exit(e);
                done.incrementAndGet();
            };
            inRequest = request.enter(); // the benchmark thread is inside a trace from here on
        }

        /** Waits until the pool has run every task handed over so far. */
        void await() {
            long n = ++submitted;
            while (done.get() != n) Thread.onSpinWait();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException, InterruptedException {
            request.exit(inRequest);
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
            stop();
        }
    }

    /** A monitored task handed to a pool with a plain {@code execute}: no trace context travels. */
    @Benchmark
    public void handoffPlain(Handoff s) {
        s.pool.execute(s.task);
        s.await();
    }

    /**
     * The same task handed over with its trace context, as the agent does at every hand-off inside
     * a trace: the position and the clock captured at the hand-off (one small object), the task
     * wrapped, and on the pool thread the parent set so the task's trace starts with a
     * HANDOFF_START. Minus {@link #handoffPlain}: the cost of a hand-off with an active trace.
     */
    @Benchmark
    public void handoffTraced(Handoff s) {
        TraceContext parent = Sonde.currentTrace();
        Runnable task = s.task;
        s.pool.execute(() -> {
            Sonde.continueTrace(parent);
            try {
                task.run();
            } finally {
                Sonde.continueTrace(null);
            }
        });
        s.await();
    }

    /**
     * A live-layer sensor nobody subscribes to, beside the plain field write it must stay within
     * 2 ns of: both cases write an incremented counter, one into a field, one through the sensor.
     */
    @State(Scope.Benchmark)
    public static class IdleSensor {
        long field;
        long next;
        LongSensor sensor;

        @Setup(Level.Trial)
        public void setup() {
            sensor = Sonde.live().object("bench/idle", "Bench").longSensor("value", "", "never subscribed");
        }
    }

    /** The baseline of {@link #sensorIdle}: a plain field write. */
    @Benchmark
    public void fieldWrite(IdleSensor s) {
        s.field = s.next++;
    }

    /** {@code LongSensor.set} with the gate closed: target at most 2 ns over {@link #fieldWrite}. */
    @Benchmark
    public void sensorIdle(IdleSensor s) {
        s.sensor.set(s.next++);
    }

    /**
     * A sensor with one subscriber (QoS immediate) in a session without a dispatcher thread, pumped
     * by the benchmark thread itself every {@value #PUMP_EVERY} sets: so no event is ever dropped for
     * a full queue (whatever the machine's load) and the figure is deterministic work, not a race
     * with another thread.
     */
    @State(Scope.Thread)
    public static class ActiveSensor {
        LiveRuntime live;
        ObserverEndpoint session;
        LongSensor sensor;
        long next;
        long delivered;

        @Setup(Level.Trial)
        public void setup() {
            live = LiveRuntime.bare(LiveClock.system());
            sensor = live.object("bench/active", "Bench").longSensor("value", "", "one subscriber");
            session = live.openManualSession((sub, events) -> delivered += events.size(), 4096);
            session.subscribe("bench/active/value", EnumSet.of(EventKind.VALUE_CHANGED), Qos.immediate());
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            session.pump();
            // every set changed the value, so every set made one event; none may be lost
            if (session.overflowCount() != 0 || delivered != next) {
                throw new IllegalStateException("sensor-active: " + delivered + " events delivered of " + next + ", "
                        + session.overflowCount() + " lost");
            }
            session.close();
        }
    }

    /** Sets between two pumps of {@link ActiveSensor}'s session (well below its queue of 4096). */
    static final int PUMP_EVERY = 256;

    /**
     * {@code LongSensor.set} with one subscriber: the gate open, the sensor's lock, the compare, the
     * clock read, the event object, the enqueue of its reference; plus, amortized, the event's
     * dequeue and delivery to a no-op observer (one pump per {@value #PUMP_EVERY} sets). An upper
     * bound of what the application thread pays per event (with a dispatcher thread the dequeue and
     * delivery run there); the wire encoding is not included.
     */
    @Benchmark
    public void sensorActive(ActiveSensor s) {
        s.sensor.set(++s.next);
        if ((s.next & (PUMP_EVERY - 1)) == 0) s.session.pump();
    }
}
