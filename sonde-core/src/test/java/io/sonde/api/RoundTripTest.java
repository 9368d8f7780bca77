package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property-based round trip with seeded generators: random mixes of records (nested enter/exit,
 * exceptions, events of random types, trace hand-offs, CPU modes) from 1..16 threads go through
 * the real API, rings, writer thread and file writer (small rings, frames and segments force
 * wraps, splits and rolls) and are read back by the format's reader: every record, per thread in
 * order, with the trailer balanced.
 */
@Timeout(120)
class RoundTripTest {
    @TempDir
    Path dir;

    static Stream<Long> seeds() {
        return Stream.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
    }

    static final String[] EXCEPTIONS = {"java.lang.IllegalStateException", "java.io.UncheckedIOException",
        "java.lang.ArithmeticException"};

    static RuntimeException exception(int k) {
        switch (k) {
            case 0: return new IllegalStateException();
            case 1: return new java.io.UncheckedIOException(new IOException());
            default: return new ArithmeticException();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void everyRecordComesBackPerThreadInOrder(long seed) throws Exception {
        Random rnd = new Random(seed);
        int threads = 1 + rnd.nextInt(16);
        int ring = 256 << rnd.nextInt(5); // 256 .. 4096
        int frame = 4096 << rnd.nextInt(3); // 4 .. 16 KiB
        long segment = 4096L << rnd.nextInt(4); // 4 .. 32 KiB
        String cpu = new String[] {"off", "on", "roots"}[rnd.nextInt(3)];
        Map<String, String> settings = new HashMap<>();
        settings.put("writer", "file");
        settings.put("file.dir", dir.toString());
        settings.put("buffer.bytes", String.valueOf(ring));
        settings.put("frame.bytes", String.valueOf(frame));
        settings.put("file.segment.bytes", String.valueOf(segment));
        settings.put("cpu.time", cpu);
        settings.put("policy", "block-forever"); // lossless even when the writer thread stalls on a busy machine
        settings.put("flush.interval.ms", String.valueOf(1 + rnd.nextInt(50)));

        Map<String, List<String>> expected = new HashMap<>();
        try (Monitor m = MonitorAccess.start(SondeConfig.of(settings))) {
            MethodProbe[] probes = new MethodProbe[1 + rnd.nextInt(8)];
            for (int i = 0; i < probes.length; i++) probes[i] = m.methodProbe("p.C.m" + i, "(I)V");
            EventType plain = m.eventType("plain");
            EventType mixed = m.eventType("mixed", EventField.booleanField("b"), EventField.intField("i"),
                    EventField.longField("l"), EventField.doubleField("d"), EventField.stringField("s"));
            EventType longs = m.eventType("longs", EventField.longField("a"), EventField.longField("b"));
            String[] words = {"alpha", "beta", "\u00fcml\u00e4ut", ""};
            int[] wordIds = new int[words.length];
            for (int i = 0; i < words.length; i++) wordIds[i] = m.string(words[i]);

            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long threadSeed = rnd.nextLong();
                int ops = 50 + rnd.nextInt(1500);
                String name = "rt-" + seed + "-" + t;
                List<String> exp = new ArrayList<>();
                expected.put(name, exp);
                Runnable script = () -> runScript(new Random(threadSeed), ops, probes, plain, mixed, longs, words,
                        wordIds, cpu, exp);
                workers.add(new Thread(script, name));
            }
            workers.forEach(Thread::start);
            for (Thread w : workers) w.join();
        }

        LogContent log = LogContent.read(dir);
        assertThat(log.complete).as(log.end).isTrue();
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            assertThat(log.byThreadName.getOrDefault(e.getKey(), List.of())).as("thread %s", e.getKey())
                    .containsExactlyElementsOf(e.getValue());
            List<Long> times = log.timesByThreadName.getOrDefault(e.getKey(), List.of());
            for (int i = 1; i < times.size(); i++) assertThat(times.get(i)).isGreaterThanOrEqualTo(times.get(i - 1));
        }
        long expectedData = expected.values().stream().flatMap(List::stream)
                .filter(s -> !s.startsWith("TRACE_START")).count();
        assertThat(log.dataRecords).isEqualTo(expectedData);
        assertThat(log.trailer.produced()).isEqualTo(expectedData);
        assertThat(log.trailer.written()).isEqualTo(expectedData);
        assertThat(log.trailer.droppedTotal()).isZero();
        assertThat(new HashSet<>(log.traceIds)).hasSameSizeAs(log.traceIds);
        try (var files = Files.list(dir)) {
            long segments = files.count();
            if (expectedData * 13 > 3 * segment) assertThat(segments).as("segments rolled").isGreaterThan(1);
        }
    }

    /** One thread's random work; appends the records it must produce to {@code exp}. */
    static void runScript(Random r, int ops, MethodProbe[] probes, EventType plain, EventType mixed, EventType longs,
            String[] words, int[] wordIds, String cpu, List<String> exp) {
        List<MethodProbe> stack = new ArrayList<>();
        List<Boolean> entered = new ArrayList<>();
        for (int k = 0; k < ops || !stack.isEmpty(); k++) {
            int op = k >= ops ? 5 : r.nextInt(10); // after the budget: only exits
            int depth = stack.size();
            if (op < 4 && depth < 40) {
                if (depth == 0 && r.nextInt(3) == 0) {
                    long parent = 1 + r.nextInt(1000);
                    int order = r.nextInt(50);
                    Sonde.continueTrace(parent, order);
                    exp.add("TRACE_START parent=" + parent + " order=" + order);
                } else if (depth == 0) {
                    exp.add("TRACE_START parent=0 order=-1");
                }
                MethodProbe p = probes[r.nextInt(probes.length)];
                boolean cpuHere = cpu.equals("on") || (cpu.equals("roots") && depth == 0);
                exp.add((cpuHere ? "ENTER_CPU " : "ENTER ") + p.name());
                stack.add(p);
                entered.add(p.enter());
                assertThat(Sonde.currentDepth()).isEqualTo(depth + 1);
            } else if (op < 8 && depth > 0) {
                MethodProbe p = stack.remove(depth - 1);
                boolean e = entered.remove(depth - 1);
                boolean cpuHere = cpu.equals("on") || (cpu.equals("roots") && depth == 1);
                if (r.nextInt(5) == 0) {
                    int x = r.nextInt(EXCEPTIONS.length);
                    exp.add((cpuHere ? "EXIT_EXCEPTION_CPU " : "EXIT_EXCEPTION ") + p.name() + " " + EXCEPTIONS[x]);
                    p.exitExceptionally(e, exception(x));
                } else {
                    exp.add((cpuHere ? "EXIT_CPU " : "EXIT ") + p.name());
                    p.exit(e);
                }
            } else if (op == 8) {
                exp.add("EVENT plain");
                plain.emit();
            } else {
                if (r.nextBoolean()) {
                    boolean b = r.nextBoolean();
                    int i = r.nextInt();
                    long l = r.nextLong();
                    double d = r.nextDouble() * 1e6 - 5e5;
                    int w = r.nextInt(words.length);
                    exp.add("EVENT mixed " + b + " " + i + " " + l + " " + d + " " + words[w]);
                    mixed.begin().putBoolean(b).putInt(i).putLong(l).putDouble(d).putString(wordIds[w]).end();
                } else {
                    long a = r.nextLong();
                    exp.add("EVENT longs " + a + " 0"); // second field left out: written as zero
                    longs.begin().putLong(a).end();
                }
            }
        }
    }
}
