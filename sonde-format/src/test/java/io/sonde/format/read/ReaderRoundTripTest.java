package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property: any stream the spec allows — random definitions, random records of every type from
 * 1..16 threads, cut into random blocks and frames, rolled over random segments, with repeated
 * registries — reads back exactly: every record, per thread, in order, with every field. 200
 * seeded cases (the seed is in the failure message).
 */
class ReaderRoundTripTest {
    @TempDir
    Path tmp;

    @Test
    void randomValidStreamsReadBackExactlyPerThreadInOrder() throws IOException {
        Random seeds = new Random(42);
        for (int c = 0; c < 200; c++) {
            long seed = seeds.nextLong();
            roundTrip(seed, tmp.resolve("case-" + c));
        }
    }

    /** A planned record: its encoding and its expected description. */
    private static final class Planned {
        final long thread;
        final String text;
        final java.util.function.Consumer<RecordBytes> encode;

        Planned(long thread, String text, java.util.function.Consumer<RecordBytes> encode) {
            this.thread = thread;
            this.text = text;
            this.encode = encode;
        }
    }

    private void roundTrip(long seed, Path dir) throws IOException {
        Random rnd = new Random(seed);
        UUID agent = new UUID(rnd.nextLong(), rnd.nextLong());
        int probes = 1 + rnd.nextInt(20);
        int strings = 1 + rnd.nextInt(10);
        int threads = 1 + rnd.nextInt(16);
        long[] threadIds = new long[threads];
        for (int t = 0; t < threads; t++) {
            threadIds[t] = 1 + rnd.nextInt(100_000) + (long) t * 100_000;
        }
        // definitions (with random, possibly non-ASCII, names)
        RecordBytes defs = new RecordBytes();
        Map<Integer, String> probeNames = new HashMap<>();
        Map<Integer, String> probeSigs = new HashMap<>();
        for (int p = 0; p < probes; p++) {
            int id = rnd.nextInt(Integer.MAX_VALUE) | 1 << 20 | p; // sparse ids
            while (probeNames.containsKey(id)) {
                id++;
            }
            probeNames.put(id, "pkg.C" + p + ".m\u00e9" + rnd.nextInt(1000));
            probeSigs.put(id, "(" + "IJ".repeat(rnd.nextInt(3)) + ")V");
            defs.probeDef(id, probeNames.get(id), probeSigs.get(id));
        }
        List<Integer> probeIds = new ArrayList<>(probeNames.keySet());
        Map<Integer, String> stringValues = new HashMap<>();
        for (int s = 0; s < strings; s++) {
            stringValues.put(s + 1, "s" + s + "-" + "x".repeat(rnd.nextInt(50)));
            defs.stringDef(s + 1, stringValues.get(s + 1));
        }
        byte[][] eventTypes = {{}, {1, 2, 3, 4, 5}, {5, 5}, {4}, {3, 1, 1, 2}};
        for (int e = 0; e < eventTypes.length; e++) {
            Object[] fields = new Object[eventTypes[e].length * 2];
            for (int f = 0; f < eventTypes[e].length; f++) {
                fields[2 * f] = (int) eventTypes[e][f];
                fields[2 * f + 1] = "f" + f;
            }
            defs.eventDef(e + 1, "ev" + e, fields);
        }
        for (long t : threadIds) {
            defs.threadDef(t, "thread-" + t);
        }
        // records
        List<Planned> plan = new ArrayList<>();
        int n = rnd.nextInt(2000);
        for (int i = 0; i < n; i++) {
            long thread = threadIds[rnd.nextInt(threads)];
            int probe = probeIds.get(rnd.nextInt(probeIds.size()));
            long time = rnd.nextLong();
            long cpu = rnd.nextLong();
            int ex = 1 + rnd.nextInt(strings);
            String pn = probeNames.get(probe);
            switch (rnd.nextInt(9)) {
                case 0:
                    plan.add(new Planned(thread, "ENTER " + pn + " " + time, r -> r.enter(probe, time)));
                    break;
                case 1:
                    plan.add(new Planned(thread, "EXIT " + pn + " " + time, r -> r.exit(probe, time)));
                    break;
                case 2:
                    plan.add(new Planned(thread, "EXIT_EXCEPTION " + pn + " " + time + " " + stringValues.get(ex), r -> r.exitException(probe, time, ex)));
                    break;
                case 3:
                    plan.add(new Planned(thread, "ENTER_CPU " + pn + " " + time + " " + cpu, r -> r.enterCpu(probe, time, cpu)));
                    break;
                case 4:
                    plan.add(new Planned(thread, "EXIT_CPU " + pn + " " + time + " " + cpu, r -> r.exitCpu(probe, time, cpu)));
                    break;
                case 5:
                    plan.add(new Planned(thread, "EXIT_EXCEPTION_CPU " + pn + " " + time + " " + cpu + " " + stringValues.get(ex),
                            r -> r.exitExceptionCpu(probe, time, cpu, ex)));
                    break;
                case 6: {
                    long trace = rnd.nextLong();
                    long parent = rnd.nextLong();
                    int order = rnd.nextInt();
                    plan.add(new Planned(thread, "TRACE_START " + trace + " " + parent + " " + order, r -> r.traceStart(trace, parent, order)));
                    break;
                }
                case 7: {
                    int dropped = rnd.nextInt(Integer.MAX_VALUE);
                    plan.add(new Planned(thread, "GAP " + dropped, r -> r.gap(dropped)));
                    break;
                }
                default: {
                    int type = rnd.nextInt(eventTypes.length);
                    Object[] values = new Object[eventTypes[type].length];
                    StringBuilder text = new StringBuilder("EVENT ev" + type + " " + time);
                    for (int f = 0; f < values.length; f++) {
                        switch (eventTypes[type][f]) {
                            case 1:
                                values[f] = rnd.nextBoolean();
                                break;
                            case 2:
                                values[f] = rnd.nextInt();
                                break;
                            case 3:
                                values[f] = rnd.nextLong();
                                break;
                            case 4:
                                values[f] = Double.longBitsToDouble(rnd.nextLong());
                                break;
                            default:
                                int sid = 1 + rnd.nextInt(strings);
                                values[f] = RecordBytes.str(sid);
                                text.append(' ').append(stringValues.get(sid));
                                continue;
                        }
                        text.append(' ').append(values[f]);
                    }
                    plan.add(new Planned(thread, text.toString(), r -> r.event(type + 1, time, values)));
                }
            }
        }
        // frames: random runs of records, grouped into blocks per thread keeping each thread's order
        Map<Long, List<String>> expected = new LinkedHashMap<>();
        for (Planned p : plan) {
            expected.computeIfAbsent(p.thread, k -> new ArrayList<>()).add(p.text);
        }
        int segments = 1 + rnd.nextInt(3);
        List<byte[]> files = new ArrayList<>();
        StreamBytes s = new StreamBytes(agent, "host", 1);
        long seq = 0;
        s.data(seq++, 0, 0, 0L, defs);
        int i = 0;
        int segment = 0;
        while (i < plan.size() || segment < segments - 1) {
            if (segment < segments - 1 && rnd.nextInt(4) == 0) {
                s.segmentEnd(seq++, 0, 0, segment + 1);
                files.add(s.toBytes());
                segment++;
                s = new StreamBytes(agent, "host", 1);
                s.data(seq++, 0, 0, 0L, defs); // each segment repeats the registry
                continue;
            }
            int take = Math.min(plan.size() - i, rnd.nextInt(200));
            Map<Long, RecordBytes> blocks = new LinkedHashMap<>();
            for (int k = i; k < i + take; k++) {
                Planned p = plan.get(k);
                p.encode.accept(blocks.computeIfAbsent(p.thread, x -> new RecordBytes()));
            }
            i += take;
            List<Object> args = new ArrayList<>();
            if (rnd.nextInt(5) == 0) { // a repeated identical definition is allowed anywhere
                args.add(0L);
                int again = probeIds.get(0);
                args.add(new RecordBytes().probeDef(again, probeNames.get(again), probeSigs.get(again)));
            }
            blocks.forEach((t, r) -> {
                args.add(t);
                args.add(r);
            });
            s.data(seq++, 0, 0, args.toArray());
        }
        s.trailer(seq, 0, 0, plan.size(), plan.size());
        files.add(s.toBytes());

        Files.createDirectories(dir);
        for (int f = 0; f < files.size(); f++) {
            Files.write(dir.resolve(String.format("sonde-%s-%06d.sonde", agent, f)), files.get(f));
        }
        Map<Long, List<String>> actual = new LinkedHashMap<>();
        try (SondeReader r = SondeReader.open(dir)) {
            while (r.next()) {
                actual.computeIfAbsent(r.threadId(), k -> new ArrayList<>()).add(describe(r));
                if (!("thread-" + r.threadId()).equals(r.threadName())) {
                    throw new AssertionError("seed " + seed + ": thread " + r.threadId() + " named " + r.threadName());
                }
            }
            assertThat(r.end().kind()).as("seed " + seed + ": " + r.end()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.trailer().written()).isEqualTo(plan.size());
        }
        assertThat(actual).as("seed " + seed).isEqualTo(expected);
    }

    private static String describe(SondeReader r) {
        String type = RecordTypes.name(r.type());
        switch (r.type()) {
            case Format.TRACE_START:
                return type + " " + r.traceId() + " " + r.parentTraceId() + " " + r.parentOrderIndex();
            case Format.GAP:
                return type + " " + r.gapCount();
            case Format.EVENT: {
                StringBuilder s = new StringBuilder("EVENT ").append(r.eventType().name()).append(' ').append(r.time());
                for (int f = 0; f < r.eventType().fieldCount(); f++) {
                    s.append(' ').append(r.fieldValue(f));
                }
                return s.toString();
            }
            default: {
                StringBuilder s = new StringBuilder(type).append(' ').append(r.probeName()).append(' ').append(r.time());
                if (r.hasCpuTime()) {
                    s.append(' ').append(r.cpuTime());
                }
                if (r.isExceptionExit()) {
                    s.append(' ').append(r.exceptionClass());
                }
                return s.toString();
            }
        }
    }
}
