package io.sonde.bench.mooms;

import io.sonde.bench.common.OptionArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Options of {@code sonde bench mooms}; see {@link #USAGE}. */
final class MoomsOptions {
    static final String USAGE = "usage: sonde bench mooms [--quick] [--json FILE] [--out DIR] [--rounds N] [--observers 1,2,3,4,5]\n"
            + "          [--qos immediate,batch-1,batch-10,batch-100,periodic-1ms,periodic-10ms,periodic-30ms] [--flush-ms N]\n"
            + "          [--jmx-listeners 0,1,2,3,4,5] [--requests N] [--warmup N] [--max-ms N] [--work N]";

    boolean quick;
    Path json;
    Path out = Path.of("target", "mooms");
    int rounds = 3;
    List<Integer> observers = List.of(1, 2, 3, 4, 5);
    List<String> qos = List.of("immediate", "batch-1", "batch-10", "batch-100", "periodic-1ms", "periodic-10ms", "periodic-30ms");
    long flushMs = 10;
    List<Integer> jmxListeners = List.of(0, 1, 2, 3, 4, 5);
    /** Timed requests per measurement (at most). */
    int requests = 50_000;
    /** Untimed requests before them (their events are counted too). */
    int warmup = 5_000;
    /** A measurement stops after this long even if fewer requests ran. */
    long maxMs = 1000;
    /** Iterations of the business work per request ({@link Workload#businessWork}). */
    int work = 2000;

    static MoomsOptions parse(String[] args) {
        MoomsOptions o = new MoomsOptions();
        for (String a : args) {
            if (a.equals("--quick")) o.quickDefaults();
        }
        OptionArgs a = new OptionArgs(args);
        while (a.next()) {
            String opt = a.option();
            if (opt.equals("--quick")) continue;
            if (opt.equals("--help") || opt.equals("-h")) throw new IllegalArgumentException(USAGE);
            String v = a.value();
            switch (opt) {
                case "--json" -> o.json = Path.of(v);
                case "--out" -> o.out = Path.of(v);
                case "--rounds" -> o.rounds = (int) Math.min(1_000, OptionArgs.parseLong(opt, v, 1));
                case "--observers" -> o.observers = counts(opt, v, 0);
                case "--jmx-listeners" -> o.jmxListeners = counts(opt, v, 0);
                case "--qos" -> {
                    o.qos = List.of(v.split(","));
                    for (String q : o.qos) Configuration.parseQos(q, Duration.ofMillis(1));
                }
                case "--flush-ms" -> o.flushMs = OptionArgs.parseLong(opt, v, 1);
                case "--requests" -> o.requests = (int) Math.min(Integer.MAX_VALUE, OptionArgs.parseLong(opt, v, MoomsServer.BLOCK));
                case "--warmup" -> o.warmup = (int) Math.min(Integer.MAX_VALUE, OptionArgs.parseLong(opt, v, 0));
                case "--max-ms" -> o.maxMs = OptionArgs.parseLong(opt, v, 1);
                case "--work" -> o.work = (int) Math.min(Integer.MAX_VALUE, OptionArgs.parseLong(opt, v, 0));
                default -> throw new IllegalArgumentException("unknown option " + opt + "\n" + USAGE);
            }
        }
        return o;
    }

    /** Seconds, not minutes: proves the whole path runs (a test uses it); no figure to quote. */
    private void quickDefaults() {
        quick = true;
        rounds = 1;
        observers = List.of(1, 2);
        qos = List.of("immediate", "batch-10", "periodic-10ms");
        jmxListeners = List.of(0, 1, 2);
        requests = 2_000;
        warmup = 500;
        maxMs = 500;
    }

    Duration flush() {
        return Duration.ofMillis(flushMs);
    }

    private static List<Integer> counts(String option, String value, int min) {
        List<Integer> list = new ArrayList<>();
        for (String s : value.split(",")) {
            long n = OptionArgs.parseLong(option, s, min);
            if (n > 64) throw new IllegalArgumentException("option " + option + ": " + n + " is above the maximum 64");
            list.add((int) n);
        }
        if (list.isEmpty()) throw new IllegalArgumentException("option " + option + ": empty list");
        return List.copyOf(list);
    }
}
