package io.sonde.core.prometheus;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * Writes the Prometheus text exposition format, version 0.0.4: per metric family a {@code # HELP}
 * and a {@code # TYPE} line, then its samples, one per line, {@code name{label="value",...} value}.
 * Label values are escaped (backslash, double quote, line feed), HELP texts too (backslash, line
 * feed); names are checked. Callers write all samples of a family right after its header, as the
 * format requires.
 */
public final class PrometheusText {
    /** The Content-Type of a scrape's answer. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final StringBuilder out = new StringBuilder(4096);

    /**
     * Starts a metric family.
     *
     * @param type {@code counter}, {@code gauge} or {@code histogram}
     * @throws IllegalArgumentException for a name the format does not allow
     */
    public PrometheusText family(String name, String type, String help) {
        checkName(METRIC_NAME, name, "metric name");
        out.append("# HELP ").append(name).append(' ');
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            if (c == '\\') out.append("\\\\");
            else if (c == '\n') out.append("\\n");
            else out.append(c);
        }
        out.append('\n').append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /**
     * One sample.
     *
     * @param labels label names and values, alternating
     * @throws IllegalArgumentException for an odd label list or a name the format does not allow
     */
    public PrometheusText sample(String name, double value, String... labels) {
        sampleStart(name, labels);
        out.append(format(value)).append('\n');
        return this;
    }

    /** One sample with an integer value (counts: written exactly, without an exponent). */
    public PrometheusText sample(String name, long value, String... labels) {
        sampleStart(name, labels);
        out.append(value).append('\n');
        return this;
    }

    private void sampleStart(String name, String[] labels) {
        checkName(METRIC_NAME, name, "metric name");
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels of " + name + " must be name-value pairs, got " + labels.length + " strings");
        }
        out.append(name);
        if (labels.length > 0) {
            out.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                checkName(LABEL_NAME, labels[i], "label name of " + name);
                if (i > 0) out.append(',');
                out.append(labels[i]).append("=\"");
                escapeLabelValue(labels[i + 1]);
                out.append('"');
            }
            out.append('}');
        }
        out.append(' ');
    }

    private void escapeLabelValue(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    /**
     * A float value as the format spells it: {@code +Inf}, {@code -Inf}, {@code NaN}, else the
     * shortest decimal that reads back as the same double, without an exponent ({@code 0.00025}, {@code 1}).
     */
    static String format(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (v == Double.POSITIVE_INFINITY) return "+Inf";
        if (v == Double.NEGATIVE_INFINITY) return "-Inf";
        if (v == 0) return "0";
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    private static void checkName(Pattern p, String name, String what) {
        if (name == null || !p.matcher(name).matches()) {
            throw new IllegalArgumentException("bad Prometheus " + what + ": '" + name + "'");
        }
    }

    /** The text written so far. */
    @Override
    public String toString() {
        return out.toString();
    }
}
