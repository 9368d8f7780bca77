package io.sonde.bench.mooms;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's figures: per configuration the time per request and the relative overhead
 * against the un-instrumented server of the same round ({@code (t - t_none) / t_none}, MOOMS's
 * definition), as the median over rounds with the range, and the readers' event counts; then the
 * two goals of issue 11 checked.
 */
final class MoomsReport {

    /** One configuration over all rounds. */
    record Row(Configuration config, List<Measurement> rounds, double nsPerRequest, double overhead, double overheadMin,
            double overheadMax, double addedNs, long expected, long received, long lost, Long serverLost, long missing) {}

    private final MoomsOptions o;
    private final String jdk;
    private final double loadStart;
    private final double loadEnd;
    private final double seconds;
    private final List<Row> rows = new ArrayList<>();
    /** Largest difference between the two baseline measurements of a round, relative to their mean. */
    private final double noise;

    MoomsReport(MoomsOptions o, String jdk, List<Measurement> all, double loadStart, double loadEnd, double seconds) {
        this.o = o;
        this.jdk = jdk;
        this.loadStart = loadStart;
        this.loadEnd = loadEnd;
        this.seconds = seconds;
        Map<Integer, double[]> baseline = new HashMap<>(); // round -> the none figures
        for (Measurement m : all) {
            if (m.config().system().equals("none")) {
                double[] b = baseline.getOrDefault(m.round(), new double[0]);
                b = Arrays.copyOf(b, b.length + 1);
                b[b.length - 1] = m.meanNs();
                baseline.put(m.round(), b);
            }
        }
        double worst = 0;
        for (double[] b : baseline.values()) {
            if (b.length == 2) worst = Math.max(worst, Math.abs(b[0] - b[1]) / ((b[0] + b[1]) / 2));
        }
        this.noise = worst;
        Map<String, List<Measurement>> byName = new LinkedHashMap<>();
        for (Measurement m : all) byName.computeIfAbsent(m.config().name(), k -> new ArrayList<>()).add(m);
        for (List<Measurement> ms : byName.values()) {
            int n = ms.size();
            double[] ns = new double[n];
            double[] overhead = new double[n];
            double[] added = new double[n];
            long expected = 0;
            long received = 0;
            long lost = 0;
            long missing = 0;
            Long serverLost = null;
            for (int i = 0; i < n; i++) {
                Measurement m = ms.get(i);
                double base = mean(baseline.get(m.round()));
                ns[i] = m.meanNs();
                overhead[i] = (m.meanNs() - base) / base;
                added[i] = m.meanNs() - base;
                expected += m.expectedPerReader() * m.received().length;
                received += m.receivedTotal();
                lost += m.lostTotal();
                missing += m.missingTotal();
                if (m.serverLost() != null) serverLost = (serverLost == null ? 0 : serverLost) + m.serverLost();
            }
            rows.add(new Row(ms.get(0).config(), ms, median(ns), median(overhead), min(overhead), max(overhead), median(added),
                    expected, received, lost, serverLost, missing));
        }
    }

    List<Row> rows() {
        return rows;
    }

    double noise() {
        return noise;
    }

    /** The row of {@code name}, or null. */
    Row row(String name) {
        for (Row r : rows) {
            if (r.config().name().equals(name)) return r;
        }
        return null;
    }

    /** Whether idle's median overhead lies within the baseline's own spread. */
    boolean idleWithinNoise() {
        Row idle = row("idle");
        return idle != null && Math.abs(idle.overhead()) <= noise;
    }

    /** The reader count at which Sonde and JMX are compared: 5, or the largest both have. */
    int comparedReaders() {
        int best = -1;
        for (int n : o.observers) {
            if (o.jmxListeners.contains(n) && (n == 5 || (best != 5 && n > best))) best = n;
        }
        return best;
    }

    /** Per QoS: Sonde's median overhead, JMX's, and whether Sonde's is below, at {@link #comparedReaders()}. */
    Map<String, Map<String, Object>> sondeAgainstJmx() {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        int n = comparedReaders();
        Row jmx = row("jmx x" + n);
        if (n < 1 || jmx == null) return m;
        for (String q : o.qos) {
            Row s = row("sonde " + q + " x" + n);
            if (s == null) continue;
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("sondeOverhead", s.overhead());
            e.put("jmxOverhead", jmx.overhead());
            e.put("sondeBelowJmx", s.overhead() < jmx.overhead());
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
        b.append("| configuration | ns/request | overhead vs none: median [min, max] | + ns/request | events received of expected"
                + " | lost (reported / at server) | missing |\n");
        b.append("| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
        for (Row r : rows) {
            String events = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d of %,d", r.received(), r.expected());
            String lost = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d / %s", r.lost(),
                    r.serverLost() == null ? "-" : String.format(Locale.ROOT, "%,d", r.serverLost()));
            String missing = r.expected() == 0 ? "" : String.format(Locale.ROOT, "%,d", r.missing());
            b.append(String.format(Locale.ROOT, "| %s | %.0f | %s [%s, %s] | %.0f | %s | %s | %s |%n", r.config().name(), r.nsPerRequest(),
                    pct(r.overhead()), pct(r.overheadMin()), pct(r.overheadMax()), r.addedNs(), events, lost, missing));
        }
        Row idle = row("idle");
        b.append(String.format(Locale.ROOT, "%nNoise (largest difference of the two baseline runs of a round): %s.%n", pct(noise)));
        if (idle != null) {
            b.append(String.format(Locale.ROOT, "Goal: idle within noise of none: %s (idle %s).%n", idleWithinNoise() ? "met" : "NOT met",
                    pct(idle.overhead())));
        }
        Map<String, Map<String, Object>> cmp = sondeAgainstJmx();
        if (!cmp.isEmpty()) {
            long below = cmp.values().stream().filter(e -> (Boolean) e.get("sondeBelowJmx")).count();
            b.append(String.format(Locale.ROOT, "Goal: with %d observers Sonde below JMX: %d of %d QoS settings (%s)%n", comparedReaders(), below,
                    cmp.size(), cmp.entrySet().stream().map(e -> e.getKey() + " " + pct((Double) e.getValue().get("sondeOverhead")) + " vs "
                            + pct((Double) e.getValue().get("jmxOverhead"))).reduce((x, y) -> x + ", " + y).orElse("")));
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
        root.put("noise", noise);
        List<Object> configs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", r.config().name());
            c.put("system", r.config().system());
            c.put("qos", r.config().qos());
            c.put("readers", r.config().readers());
            c.put("nsPerRequest", r.nsPerRequest());
            c.put("relativeOverhead", r.overhead());
            c.put("relativeOverheadMin", r.overheadMin());
            c.put("relativeOverheadMax", r.overheadMax());
            c.put("addedNsPerRequest", r.addedNs());
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
                x.put("meanNsPerRequest", m.meanNs());
                x.put("blockMedianNsPerRequest", m.blockMedianNs());
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
        goals.put("idleOverhead", idle == null ? null : idle.overhead());
        goals.put("idleWithinNoise", idle == null ? null : idleWithinNoise());
        goals.put("comparedReaders", comparedReaders());
        goals.put("sondeAgainstJmx", sondeAgainstJmx());
        root.put("goals", goals);
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
    }

    private static String pct(double ratio) {
        return String.format(Locale.ROOT, "%+.1f %%", ratio * 100);
    }

    private static double mean(double[] a) {
        double s = 0;
        for (double x : a) s += x;
        return s / a.length;
    }

    static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static double min(double[] a) {
        return Arrays.stream(a).min().orElse(Double.NaN);
    }

    private static double max(double[] a) {
        return Arrays.stream(a).max().orElse(Double.NaN);
    }
}
