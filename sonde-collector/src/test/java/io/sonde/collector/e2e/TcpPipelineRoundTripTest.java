package io.sonde.collector.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.EventField;
import io.sonde.api.EventType;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.StreamSummary;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.RecordTypes;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, property style: seeded random mixes of records (nested enters and exits, exceptional
 * exits, events with every field type, CPU time on or off) produced by 1 to 16 threads through the
 * real sonde-core pipeline and its TCP writer into the receiver, then read back from the stored
 * files: every record, per thread, in order, and a balanced trailer; with and without frame
 * compression.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang fails instead of blocking the build
class TcpPipelineRoundTripTest {
    @TempDir
    Path tmp;

    private static final String[] PROBES = {"shop.Cart.add", "shop.Cart.total", "shop.Db.query", "shop.Db.commit"};

    @Test
    void randomRecordMixesFromUpTo16ThreadsArriveExactlyPerThreadInOrder() throws Exception {
        long seed = Long.getLong("e2e.seed", 0x5EEDL);
        Random trials = new Random(seed);
        int[] threadCounts = {1, 3, 16, 1 + trials.nextInt(16), 1 + trials.nextInt(16)};
        for (int trial = 0; trial < threadCounts.length; trial++) {
            // odd trials compress their frames (format 2.4): the receiver stores them as they come, the reader expands them
            runTrial("seed " + seed + " trial " + trial, trials.nextLong(), threadCounts[trial], trial % 2 == 1 ? "lz4" : "off",
                    tmp.resolve("trial-" + trial));
        }
    }

    private void runTrial(String trialName, long trialSeed, int threads, String compress, Path out) throws Exception {
        Random rnd = new Random(trialSeed);
        boolean cpu = rnd.nextBoolean();
        CountDownLatch closed = new CountDownLatch(1);
        String name = trialName;
        List<String> failures = new ArrayList<>();
        Receiver receiver = Receiver.start(0, new Archive(out), new ReceiverListener() {
            @Override
            public void closed(String peer, StreamSummary stream) {
                closed.countDown();
            }

            @Override
            public void failed(String peer, long offset, String problem, StreamSummary stream) {
                synchronized (failures) {
                    failures.add(peer + " offset " + offset + ": " + problem);
                }
                closed.countDown();
            }
        });
        Map<Long, List<String>> expected = new ConcurrentHashMap<>();
        UUID agent;
        Trailer trailerCounters;
        long producedByApi;
        try {
            Map<String, String> settings = new HashMap<>();
            settings.put("writer", "tcp");
            settings.put("tcp.host", "127.0.0.1");
            settings.put("tcp.port", String.valueOf(receiver.port()));
            int ringBytes = 1 << (10 + rnd.nextInt(4)); // small rings: many wraps
            int frameBytes = 4096 + rnd.nextInt(16384); // small frames (4 KiB is the least allowed): many frames and blocks
            settings.put("buffer.bytes", System.getProperty("e2e.buffer.bytes", String.valueOf(ringBytes)));
            settings.put("frame.bytes", System.getProperty("e2e.frame.bytes", String.valueOf(frameBytes)));
            settings.put("flush.interval.ms", "5");
            settings.put("policy", "block-forever"); // lossless: a stalled writer must not cause drops here
            settings.put("cpu.time", cpu ? "on" : "off");
            settings.put("compress", compress);
            name += " " + threads + " threads " + settings;
            Monitor m = MonitorAccess.start(io.sonde.core.config.SondeConfig.of(settings));
            try {
                agent = m.agentId();
                MethodProbe[] probes = new MethodProbe[PROBES.length];
                for (int i = 0; i < PROBES.length; i++) {
                    probes[i] = m.methodProbe(PROBES[i], "(I)V");
                }
                EventType order = m.eventType("order", EventField.booleanField("paid"), EventField.intField("items"),
                        EventField.longField("cents"), EventField.doubleField("weight"), EventField.stringField("region"));
                EventType tick = m.eventType("tick");
                String[] regions = {"eu-west", "us-east", "ap-south"};
                int[] regionIds = new int[regions.length];
                for (int i = 0; i < regions.length; i++) {
                    regionIds[i] = m.string(regions[i]);
                }
                List<Thread> workers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long threadSeed = rnd.nextLong();
                    int ops = 50 + rnd.nextInt(1500);
                    Thread w = new Thread(() -> {
                        List<String> mine = new ArrayList<>();
                        produce(new Random(threadSeed), ops, probes, order, tick, regions, regionIds, mine);
                        expected.put(threadId(Thread.currentThread()), mine);
                    }, "worker-" + t);
                    workers.add(w);
                }
                workers.forEach(Thread::start);
                for (Thread w : workers) {
                    w.join(60_000);
                    assertThat(w.isAlive()).as(name + ": worker finished").isFalse();
                }
            } finally {
                m.close();
            }
            producedByApi = m.counters().produced();
            assertThat(closed.await(30, TimeUnit.SECONDS)).as(name + ": receiver saw the connection end").isTrue();
            assertThat(failures).as(name).isEmpty();
            ReceiverStatus st = receiver.status();
            assertThat(st.agents()).containsKey(agent);
        } finally {
            receiver.stop();
        }

        // read back
        Map<Long, List<String>> actual = new HashMap<>();
        long dataRecords = 0;
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            Map<Long, Long> lastTime = new HashMap<>();
            while (r.next()) {
                byte type = r.type();
                if (type == Format.TRACE_START) {
                    continue;
                }
                assertThat(type).as(name + ": no gaps under the block policy").isNotEqualTo(Format.GAP);
                long thread = r.threadId();
                List<String> list = actual.computeIfAbsent(thread, k -> new ArrayList<>());
                list.add(describe(r));
                dataRecords++;
                long time = r.time();
                Long before = lastTime.put(thread, time);
                if (before != null) {
                    assertThat(time).as(name + ": times of thread " + thread + " never go back").isGreaterThanOrEqualTo(before);
                }
                if (type != Format.EVENT) {
                    assertThat(r.hasCpuTime()).as(name + ": CPU variants exactly when cpu.time=on").isEqualTo(cpu);
                }
            }
            assertThat(r.end().kind()).as(name + ": " + r.end()).isEqualTo(ReadEnd.Kind.COMPLETE);
            trailerCounters = r.trailer();
        }
        // threads that produced nothing have no block at all
        Map<Long, List<String>> expectedNonEmpty = new HashMap<>();
        expected.forEach((k, v) -> {
            if (!v.isEmpty()) {
                expectedNonEmpty.put(k, v);
            }
        });
        assertThat(actual.keySet()).as(name + ": threads").isEqualTo(expectedNonEmpty.keySet());
        for (Map.Entry<Long, List<String>> e : expectedNonEmpty.entrySet()) {
            assertThat(actual.get(e.getKey())).as(name + ": records of thread " + e.getKey()).isEqualTo(e.getValue());
        }
        long expectedTotal = expected.values().stream().mapToLong(List::size).sum();
        assertThat(dataRecords).isEqualTo(expectedTotal);
        assertThat(trailerCounters.written()).isEqualTo(expectedTotal);
        assertThat(trailerCounters.produced()).isEqualTo(expectedTotal).isEqualTo(producedByApi);
        assertThat(trailerCounters.droppedTotal()).isZero();
    }

    /** A random script: nested probed calls (depth up to 5), exceptional exits, events. */
    private static void produce(Random rnd, int ops, MethodProbe[] probes, EventType order, EventType tick, String[] regions,
            int[] regionIds, List<String> expected) {
        for (int i = 0; i < ops; i++) {
            call(rnd, 0, probes, order, tick, regions, regionIds, expected);
        }
    }

    private static void call(Random rnd, int depth, MethodProbe[] probes, EventType order, EventType tick, String[] regions,
            int[] regionIds, List<String> expected) {
        int what = rnd.nextInt(10);
        if (what < 2) {
            boolean paid = rnd.nextBoolean();
            int items = rnd.nextInt();
            long cents = rnd.nextLong();
            double weight = rnd.nextDouble() * 100;
            int region = rnd.nextInt(regions.length);
            order.begin().putBoolean(paid).putInt(items).putLong(cents).putDouble(weight).putString(regionIds[region]).end();
            expected.add("EVENT order paid=" + paid + " items=" + items + " cents=" + cents + " weight=" + weight + " region=" + regions[region]);
            return;
        }
        if (what == 2) {
            tick.emit();
            expected.add("EVENT tick");
            return;
        }
        MethodProbe p = probes[rnd.nextInt(probes.length)];
        boolean entered = p.enter();
        expected.add("ENTER " + p.name());
        int children = depth < 5 ? rnd.nextInt(3) : 0;
        for (int c = 0; c < children; c++) {
            call(rnd, depth + 1, probes, order, tick, regions, regionIds, expected);
        }
        if (rnd.nextInt(8) == 0) {
            RuntimeException ex = rnd.nextBoolean() ? new IllegalStateException("x") : new java.io.UncheckedIOException(new java.io.IOException("y"));
            p.exitExceptionally(entered, ex);
            expected.add("EXIT_EXCEPTION " + p.name() + " " + ex.getClass().getName());
        } else {
            p.exit(entered);
            expected.add("EXIT " + p.name());
        }
    }

    /** The record as the script wrote it (CPU variants folded into their plain type). */
    private static String describe(SondeReader r) {
        String type = RecordTypes.name(r.type()).replace("_CPU", "");
        switch (r.type()) {
            case Format.EVENT: {
                StringBuilder s = new StringBuilder("EVENT ").append(r.eventType().name());
                for (int i = 0; i < r.eventType().fieldCount(); i++) {
                    s.append(' ').append(r.eventType().fieldName(i)).append('=').append(r.fieldValue(i));
                }
                return s.toString();
            }
            case Format.EXIT_EXCEPTION:
            case Format.EXIT_EXCEPTION_CPU:
                return type + " " + r.probeName() + " " + r.exceptionClass();
            default:
                return type + " " + r.probeName();
        }
    }

    @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; the format carries getId()
    private static long threadId(Thread t) {
        return t.getId();
    }

}
