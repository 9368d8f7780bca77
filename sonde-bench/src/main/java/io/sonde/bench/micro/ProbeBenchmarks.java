package io.sonde.bench.micro;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.live.LongSensor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
}
