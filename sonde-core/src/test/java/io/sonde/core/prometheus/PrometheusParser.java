package io.sonde.core.prometheus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, written from the format's
 * description for the tests (no Java parser of the text format resolves from the Maven mirror
 * here: the Prometheus Java client libraries only write it). It rejects what a Prometheus server
 * would reject and a bit more: a sample outside the family its last {@code # TYPE} declared, a
 * family declared twice, a repeated series, a bad name, an unknown escape or an unterminated label
 * value, a value that is not a number; and for histograms: a bucket without {@code le}, buckets
 * not cumulative, a missing {@code +Inf} bucket, or a {@code _count} other than the {@code +Inf}
 * bucket. Errors name the line.
 */
public final class PrometheusParser {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One sample: its metric name, labels (in the order written) and value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /** One family: name, type, help and its samples. */
    public record Family(String name, String type, String help, List<Sample> samples) {}

    private PrometheusParser() {}

    /**
     * Parses a whole exposition.
     *
     * @return the families by name, in the order written
     * @throws IllegalArgumentException naming the line and the problem
     */
    public static Map<String, Family> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("exposition does not end with a line feed");
        }
        Map<String, Family> families = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        Set<String> series = new HashSet<>();
        Family current = null;
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length - 1; n++) {
            String line = lines[n];
            String where = "line " + (n + 1) + " ('" + line + "'): ";
            if (line.isBlank()) continue;
            if (line.startsWith("# HELP ")) {
                String rest = line.substring(7);
                int sp = rest.indexOf(' ');
                String name = sp < 0 ? rest : rest.substring(0, sp);
                checkName(METRIC_NAME, name, where);
                if (helps.put(name, unescapeHelp(sp < 0 ? "" : rest.substring(sp + 1), where)) != null) {
                    throw new IllegalArgumentException(where + "second HELP for " + name);
                }
            } else if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                if (parts.length != 2 || !TYPES.contains(parts[1])) throw new IllegalArgumentException(where + "bad TYPE line");
                checkName(METRIC_NAME, parts[0], where);
                if (families.containsKey(parts[0])) throw new IllegalArgumentException(where + "family " + parts[0] + " declared twice");
                current = new Family(parts[0], parts[1], helps.getOrDefault(parts[0], ""), new ArrayList<>());
                families.put(parts[0], current);
            } else if (line.startsWith("#")) {
                continue; // a comment
            } else {
                Sample s = sample(line, where);
                if (current == null || !belongs(s.name(), current)) {
                    throw new IllegalArgumentException(where + "sample " + s.name() + " outside its family's block (current: "
                            + (current == null ? "none" : current.name()) + ")");
                }
                if (!series.add(s.name() + new TreeMap<>(s.labels()))) throw new IllegalArgumentException(where + "series repeated");
                current.samples().add(s);
            }
        }
        for (Family f : families.values()) {
            if (f.type().equals("histogram")) checkHistogram(f);
        }
        return families;
    }

    private static boolean belongs(String sample, Family f) {
        if (sample.equals(f.name())) return !f.type().equals("histogram");
        if (f.type().equals("histogram")) {
            return sample.equals(f.name() + "_bucket") || sample.equals(f.name() + "_sum") || sample.equals(f.name() + "_count");
        }
        return false;
    }

    private static Sample sample(String line, String where) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') i++;
        String name = line.substring(0, i);
        checkName(METRIC_NAME, name, where);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (i >= line.length()) throw new IllegalArgumentException(where + "unterminated label set");
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0) throw new IllegalArgumentException(where + "label without '='");
                String label = line.substring(i, eq);
                checkName(LABEL_NAME, label, where);
                if (eq + 1 >= line.length() || line.charAt(eq + 1) != '"') throw new IllegalArgumentException(where + "label value not quoted");
                StringBuilder v = new StringBuilder();
                int j = eq + 2;
                for (;; j++) {
                    if (j >= line.length()) throw new IllegalArgumentException(where + "unterminated label value");
                    char c = line.charAt(j);
                    if (c == '"') break;
                    if (c == '\\') {
                        if (++j >= line.length()) throw new IllegalArgumentException(where + "unterminated escape");
                        char e = line.charAt(j);
                        if (e == '\\') v.append('\\');
                        else if (e == '"') v.append('"');
                        else if (e == 'n') v.append('\n');
                        else throw new IllegalArgumentException(where + "unknown escape \\" + e);
                    } else {
                        v.append(c);
                    }
                }
                if (labels.put(label, v.toString()) != null) throw new IllegalArgumentException(where + "label " + label + " repeated");
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') i++;
                else if (i >= line.length() || line.charAt(i) != '}') throw new IllegalArgumentException(where + "expected ',' or '}' after a label");
            }
        }
        if (i >= line.length() || line.charAt(i) != ' ') throw new IllegalArgumentException(where + "no value");
        String[] rest = line.substring(i + 1).split(" ");
        if (rest.length < 1 || rest.length > 2) throw new IllegalArgumentException(where + "expected a value and an optional timestamp");
        double value = value(rest[0], where);
        if (rest.length == 2) {
            try {
                Long.parseLong(rest[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + "bad timestamp " + rest[1]);
            }
        }
        return new Sample(name, labels, value);
    }

    private static double value(String s, String where) {
        switch (s) {
            case "+Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            case "NaN": return Double.NaN;
            default:
                if (!s.matches("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?")) throw new IllegalArgumentException(where + "bad value " + s);
                return Double.parseDouble(s);
        }
    }

    private static String unescapeHelp(String s, String where) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i >= s.length()) throw new IllegalArgumentException(where + "unterminated escape in HELP");
            char e = s.charAt(i);
            if (e == '\\') out.append('\\');
            else if (e == 'n') out.append('\n');
            else throw new IllegalArgumentException(where + "unknown escape \\" + e + " in HELP");
        }
        return out.toString();
    }

    private static void checkHistogram(Family f) {
        Map<Map<String, String>, List<Sample>> buckets = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        Set<Map<String, String>> sums = new HashSet<>();
        for (Sample s : f.samples()) {
            if (s.name().endsWith("_bucket")) {
                if (!s.labels().containsKey("le")) throw new IllegalArgumentException(f.name() + ": bucket without le: " + s);
                Map<String, String> rest = new TreeMap<>(s.labels());
                rest.remove("le");
                buckets.computeIfAbsent(rest, k -> new ArrayList<>()).add(s);
            } else if (s.name().endsWith("_count")) {
                counts.put(new TreeMap<>(s.labels()), s.value());
            } else {
                sums.add(new TreeMap<>(s.labels()));
            }
        }
        for (var e : buckets.entrySet()) {
            double previousLe = Double.NEGATIVE_INFINITY;
            double previous = 0;
            for (Sample b : e.getValue()) {
                double le = value(b.labels().get("le"), f.name() + " le of " + e.getKey() + ": ");
                if (le <= previousLe) throw new IllegalArgumentException(f.name() + " " + e.getKey() + ": le not increasing at " + le);
                if (b.value() < previous) throw new IllegalArgumentException(f.name() + " " + e.getKey() + ": buckets not cumulative at le=" + le);
                previousLe = le;
                previous = b.value();
            }
            if (previousLe != Double.POSITIVE_INFINITY) throw new IllegalArgumentException(f.name() + " " + e.getKey() + ": no +Inf bucket");
            Double count = counts.get(e.getKey());
            if (count == null || count != previous) {
                throw new IllegalArgumentException(f.name() + " " + e.getKey() + ": _count " + count + " is not the +Inf bucket " + previous);
            }
            if (!sums.contains(e.getKey())) throw new IllegalArgumentException(f.name() + " " + e.getKey() + ": no _sum");
        }
    }

    private static void checkName(Pattern p, String name, String where) {
        if (!p.matcher(name).matches()) throw new IllegalArgumentException(where + "bad name '" + name + "'");
    }
}
