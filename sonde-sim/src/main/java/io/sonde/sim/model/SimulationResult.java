package io.sonde.sim.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The measures of a simulation run, in output order: each a mean with the half-width of its 95 %
 * confidence interval over the replications, or absent ({@code null}) where the measure does not
 * apply to the model (for instance the dispatcher queue of thread-per-client).
 */
public final class SimulationResult {

    /** A mean and the half-width of its 95 % confidence interval (NaN with one replication). */
    public record Estimate(double mean, double ci95) {}

    private final Map<String, Estimate> measures = new LinkedHashMap<>();
    private final Map<String, String> info = new LinkedHashMap<>();

    /** Sets a measure (null = does not apply). Keeps the first insertion position. */
    public SimulationResult put(String key, Estimate e) {
        measures.put(key, e);
        return this;
    }

    /** Adds a descriptive field (strategy, replications, ...) printed before the measures. */
    public SimulationResult info(String key, String value) {
        info.put(key, value);
        return this;
    }

    /** The measures by key; values may be null. */
    public Map<String, Estimate> measures() {
        return Collections.unmodifiableMap(measures);
    }

    /** The estimate of {@code key}, or null when absent or not applicable. */
    public Estimate get(String key) {
        return measures.get(key);
    }

    /** The mean of {@code key}, NaN when absent. */
    public double mean(String key) {
        Estimate e = measures.get(key);
        return e == null ? Double.NaN : e.mean();
    }

    /** One JSON object: descriptive fields as strings, then each measure as {mean, ci95} or null. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : info.entrySet()) {
            sb.append(first ? "" : ",").append('"').append(e.getKey()).append("\":\"")
                    .append(e.getValue().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            first = false;
        }
        for (Map.Entry<String, Estimate> e : measures.entrySet()) {
            sb.append(first ? "" : ",").append('"').append(e.getKey()).append("\":");
            first = false;
            Estimate v = e.getValue();
            if (v == null) {
                sb.append("null");
            } else {
                sb.append("{\"mean\":").append(num(v.mean())).append(",\"ci95\":").append(num(v.ci95())).append('}');
            }
        }
        return sb.append('}').toString();
    }

    /** A readable table: one line per measure. */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : info.entrySet()) {
            sb.append(String.format(Locale.ROOT, "%-28s %s%n", e.getKey(), e.getValue()));
        }
        sb.append(String.format(Locale.ROOT, "%-28s %14s %12s%n", "measure", "mean", "±95% CI"));
        for (Map.Entry<String, Estimate> e : measures.entrySet()) {
            Estimate v = e.getValue();
            if (v == null) {
                sb.append(String.format(Locale.ROOT, "%-28s %14s %12s%n", e.getKey(), "n/a", ""));
            } else {
                sb.append(String.format(Locale.ROOT, "%-28s %14.4f %12s%n", e.getKey(), v.mean(),
                        Double.isNaN(v.ci95()) ? "-" : String.format(Locale.ROOT, "%.4f", v.ci95())));
            }
        }
        return sb.toString();
    }

    private static String num(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "null";
        }
        // Shortest round-trip representation keeps output byte-identical for a seed.
        return Double.toString(d);
    }
}
