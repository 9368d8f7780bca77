package io.sonde.bench.mooms;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's figures. Per configuration, three measures of the server's cost per request, each
 * with MOOMS's relative overhead {@code (t - t_none) / t_none} against the un-instrumented server
 * measured right before and after it, as the median over rounds with the range:
 * <ul>
 *   <li><b>wall</b>: elapsed time per request in the request loop (MOOMS's measure; on a shared
 *       machine it also takes in whatever else runs);</li>
 *   <li><b>cpu</b>: CPU time per request of all the server's Java threads (the request thread,
 *       Sonde's dispatchers and endpoint threads, JMX's connector threads) from the first timed
 *       request until the readers had drained: the work monitoring costs the server, which other
 *       processes' load inflates far less than wall time;</li>
 *   <li><b>thread</b>: CPU time per request of the request thread alone: what the application's
 *       own thread pays.</li>
 * </ul>
 * Then the readers' event counts, and the two goals of issue 11 checked on each measure.
 */
final class MoomsReport {

    /** Median and range over the rounds. */
    record Spread(double median, double min, double max) {
        static Spread of(List<Measurement> ms, ToDoubleFunction<Measurement> f) {
            double[] a = ms.stream().mapToDouble(f).toArray();
            return new Spread(MoomsReport.median(a), Arrays.stream(a).min().orElse(Double.NaN), Arrays.stream(a).max().orElse(Double.NaN));
        }
    }

    /** One configuration over all rounds. */
    record Row(Configuration config, List<Measurement> rounds, long expected, long received, long lost, Long serverLost, long missing) {
        Spread ns(Measure m) {
            return Spread.of(rounds, m.perRequest);
        }

        Spread overhead(Measure m) {
            return Spread.of(rounds, m.overhead);
        }
    }

    /** The three measures: ns per request and relative overhead of a measurement. */
    enum Measure {
        WALL("wall", Measurement::meanNs, Measurement::relativeOverhead),
        CPU("cpu", Measurement::serverCpuNs, Measurement::relativeCpuOverhead),
        THREAD("thread", Measurement::threadCpuNs, Measurement::relativeThreadCpuOverhead);

        final String label;
        final ToDoubleFunction<Measurement> perRequest;
        final ToDoubleFunction<Measurement> overhead;

        Measure(String label, ToDoubleFunction<Measurement> perRequest, ToDoubleFunction<Measurement> overhead) {
            this.label = label;
            this.perRequest = perRequest;
            this.overhead = overhead;
        }
    }

    private final MoomsOptions o;
    private final String jdk;
    private final double loadStart;
    private final double loadEnd;
    private final double seconds;
    private final List<Row> rows = new ArrayList<>();

    MoomsReport(MoomsOptions o, String jdk, List<Measurement> all, double loadStart, double loadEnd, double seconds) {
        this.o = o;
        this.jdk = jdk;
        this.loadStart = loadStart;
        this.loadEnd = loadEnd;
        this.seconds = seconds;
        Map<String, List<Measurement>> byName = new LinkedHashMap<>();
        for (Measurement m : all) byName.computeIfAbsent(m.config().name(), k -> new ArrayList<>()).add(m);
        for (List<Measurement> ms : byName.values()) {
            long expected = 0;
            long received = 0;
            long lost = 0;
            long missing = 0;
            Long serverLost = null;
            for (Measurement m : ms) {
                expected += m.expectedPerReader() * m.received().length;
                received += m.receivedTotal();
                lost += m.lostTotal();
                missing += m.missingTotal();
                if (m.serverLost() != null) serverLost = (serverLost == null ? 0 : serverLost) + m.serverLost();
            }
            rows.add(new Row(ms.get(0).config(), ms, expected, received, lost, serverLost, missing));
        }
    }

    List<Row> rows() {
        return rows;
    }

    /** The row of {@code name}, or null. */
    Row row(String name) {
        for (Row r : rows) {
            if (r.config().name().equals(name)) return r;
        }
        return null;
    }

    /**
     * The noise of a measure: the 90th percentile of |relative overhead| of the un-instrumented
     * server measured against its own neighbours, i.e. how far apart two measurements of the same
     * server fall on this machine during this run.
     */
    double noise(Measure m) {
        Row none = row("none");
        if (none == null) return Double.NaN;
        double[] a = none.rounds().stream().mapToDouble(x -> Math.abs(m.overhead.applyAsDouble(x))).toArray();
        Arrays.sort(a);
        return a[Math.min(a.length - 1, (int) Math.ceil(0.9 * a.length) - 1)];
    }

    /** Whether idle's median overhead lies within the noise. */
    boolean idleWithinNoise(Measure m) {
        Row idle = row("idle");
        return idle != null && Math.abs(idle.overhead(m).median()) <= noise(m);
    }

    /** The reader count at which Sonde and JMX are compared: 5, or the largest both have. */
    int comparedReaders() {
        int best = -1;
        for (int n : o.observers) {
            if (n > 0 && o.jmxListeners.contains(n) && (n == 5 || (best != 5 && n > best))) best = n;
        }
        return best;
    }

    /** Per QoS: Sonde's median overhead, JMX's, and whether Sonde's is below, at {@link #comparedReaders()}. */
    Map<String, Map<String, Object>> sondeAgainstJmx(Measure measure) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        int n = comparedReaders();
        Row jmx = row("jmx x" + n);
        if (n < 1 || jmx == null) return m;
        for (String q : o.qos) {
            Row s = row("sonde " + q + " x" + n);
            if (s == null) continue;
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("sondeOverhead", s.overhead(measure).median());
            e.put("jmxOverhead", jmx.overhead(measure).median());
            e.put("sondeBelowJmx", s.overhead(measure).median() < jmx.overhead(measure).median());
            m.put(q, e);
        }
        return m;
    }

    /** The Markdown table and the goals, as printed. */
    String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nMOOMS benchmark, JDK %s, %d round(s), work %d iterations per request, %s%n"
                + "load average %.2f at start, %.2f at end; %.0f s%n%n", jdk, o.rounds, o.work, o.quick ? "QUICK (no figure to quote)" : "full",
                loadStart, loadEnd, seconds));
        b.append("| configuration | wall ns/req | wall overhead: median [min, max] | server CPU ns/req | CPU overhead: median [min, max]"
                + " | request thread CPU overhead | events received of expected | lost (reported / at server) | missing |\n");
        b.append("| --- | ---: | --- | ---: | --- | --- | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            String events = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d of %,d", r.received(), r.expected());
            String lost = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d / %s", r.lost(),
                    r.serverLost() == null ? "-" : String.format(Locale.ROOT, "%,d", r.serverLost()));
            String missing = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d", r.missing());
            b.append(String.format(Locale.ROOT, "| %s | %.0f | %s | %.0f | %s | %s | %s | %s | %s |%n", r.config().name(),
                    r.ns(Measure.WALL).median(), spread(r.overhead(Measure.WALL)), r.ns(Measure.CPU).median(), spread(r.overhead(Measure.CPU)),
                    spread(r.overhead(Measure.THREAD)), events, lost, missing));
        }
        b.append("\n");
        for (Measure m : Measure.values()) {
            b.append(String.format(Locale.ROOT, "%s: noise (90th percentile of |none against its neighbours|) %s", m.label, pct(noise(m))));
            Row idle = row("idle");
            if (idle != null) {
                b.append(String.format(Locale.ROOT, "; idle %s: %s", pct(idle.overhead(m).median()),
                        idleWithinNoise(m) ? "within noise (goal met)" : "NOT within noise"));
            }
            Map<String, Map<String, Object>> cmp = sondeAgainstJmx(m);
            if (!cmp.isEmpty()) {
                long below = cmp.values().stream().filter(e -> (Boolean) e.get("sondeBelowJmx")).count();
                b.append(String.format(Locale.ROOT, "; with %d readers Sonde below JMX for %d of %d QoS (%s)", comparedReaders(), below,
                        cmp.size(), String.join(", ", cmp.entrySet().stream().map(e -> e.getKey() + " "
                                + pct((Double) e.getValue().get("sondeOverhead")) + " vs " + pct((Double) e.getValue().get("jmxOverhead")))
                                .toList())));
            }
            b.append(".\n");
        }
        return b.toString();
    }

    String json() throws JsonProcessingException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("benchmark", "mooms");
        root.put("jdk", jdk);
        root.put("quick", o.quick);
        root.put("rounds", o.rounds);
        root.put("workIterations", o.work);
        root.put("requestsPerMeasurement", o.requests);
        root.put("warmupRequests", o.warmup);
        root.put("maxMillisPerMeasurement", o.maxMs);
        root.put("batchFlushMillis", o.flushMs);
        root.put("eventsPerRequest", Measurement.EVENTS_PER_REQUEST);
        root.put("readersProcess", "harness JVM, separate from the server JVM; one TCP connection per reader on 127.0.0.1");
        root.put("loadAverageStart", loadStart);
        root.put("loadAverageEnd", loadEnd);
        root.put("seconds", seconds);
        List<Object> configs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", r.config().name());
            c.put("system", r.config().system());
            c.put("qos", r.config().qos());
            c.put("readers", r.config().readers());
            for (Measure m : Measure.values()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("nsPerRequest", r.ns(m).median());
                x.put("relativeOverhead", r.overhead(m).median());
                x.put("relativeOverheadMin", r.overhead(m).min());
                x.put("relativeOverheadMax", r.overhead(m).max());
                c.put(m.label, x);
            }
            c.put("eventsExpected", r.expected());
            c.put("eventsReceived", r.received());
            c.put("eventsLostReported", r.lost());
            c.put("eventsLostAtServer", r.serverLost());
            c.put("eventsMissing", r.missing());
            List<Object> rounds = new ArrayList<>();
            for (Measurement m : r.rounds()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("round", m.round() + 1);
                x.put("requests", m.requests());
                x.put("timedRequests", m.timed());
                x.put("nsPerRequest", m.meanNs());
                x.put("blockMedianNsPerRequest", m.blockMedianNs());
                x.put("baselineNsPerRequest", m.baseline().wallNs());
                x.put("cpuNsPerRequest", m.serverCpuNs());
                x.put("baselineCpuNsPerRequest", m.baseline().serverCpuNs());
                x.put("threadCpuNsPerRequest", m.threadCpuNs());
                x.put("baselineThreadCpuNsPerRequest", m.baseline().threadCpuNs());
                x.put("expectedPerReader", m.expectedPerReader());
                x.put("receivedPerReader", m.received());
                x.put("lostReportedPerReader", m.lost());
                x.put("lostAtServer", m.serverLost());
                x.put("drainMillis", m.drainMillis());
                rounds.add(x);
            }
            c.put("rounds", rounds);
            configs.add(c);
        }
        root.put("configurations", configs);
        Map<String, Object> goals = new LinkedHashMap<>();
        Row idle = row("idle");
        goals.put("comparedReaders", comparedReaders());
        for (Measure m : Measure.values()) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("noise", noise(m));
            g.put("idleOverhead", idle == null ? null : idle.overhead(m).median());
            g.put("idleWithinNoise", idle == null ? null : idleWithinNoise(m));
            g.put("sondeAgainstJmx", sondeAgainstJmx(m));
            goals.put(m.label, g);
        }
        root.put("goals", goals);
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
    }

    private static String spread(Spread s) {
        return pct(s.median()) + " [" + pct(s.min()) + ", " + pct(s.max()) + "]";
    }

    private static String pct(double ratio) {
        return String.format(Locale.ROOT, "%+.1f %%", ratio * 100);
    }

    static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
