package io.sonde.sim.model;

import java.util.Locale;

/** Parses durations such as {@code 5ms}, {@code 0.5ms}, {@code 200us}, {@code 2s} into milliseconds. */
public final class Durations {
    private Durations() {}

    /**
     * Parses {@code text} into milliseconds.
     *
     * @throws IllegalArgumentException with the problem when the text is not a non-negative
     *     number followed by ns, us, ms, s or min
     */
    public static double parseMillis(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        String[][] units = {{"ns", "1e-6"}, {"us", "1e-3"}, {"µs", "1e-3"}, {"ms", "1"}, {"min", "60000"}, {"s", "1000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0])) {
                String num = t.substring(0, t.length() - u[0].length()).strip();
                double v;
                try {
                    v = Double.parseDouble(num);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a duration (expected e.g. 5ms, 0.5ms, 200us, 2s)");
                }
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("duration '" + text + "' must be a finite value >= 0");
                }
                return v * Double.parseDouble(u[1]);
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration: add a unit (ns, us, ms, s, min), e.g. 5ms");
    }

    /**
     * Parses a rate such as {@code 100/s}, {@code 6000/min} or {@code 0.1/ms} into events per
     * millisecond.
     */
    public static double parseRatePerMs(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("'" + text + "' is not a rate (expected e.g. 100/s)");
        }
        double count;
        try {
            count = Double.parseDouble(t.substring(0, slash).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a rate (expected e.g. 100/s)");
        }
        if (!(count > 0) || Double.isInfinite(count)) {
            throw new IllegalArgumentException("rate '" + text + "' must be > 0");
        }
        String unit = t.substring(slash + 1).strip();
        double per = switch (unit) {
            case "s", "sec" -> 1000.0;
            case "ms" -> 1.0;
            case "min" -> 60000.0;
            case "h" -> 3_600_000.0;
            default -> throw new IllegalArgumentException("rate '" + text + "': unknown time unit '" + unit + "' (use s, ms, min or h)");
        };
        return count / per;
    }
}
