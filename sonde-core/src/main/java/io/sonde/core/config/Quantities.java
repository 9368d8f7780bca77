package io.sonde.core.config;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Sizes and durations as operators write them in options: {@code 500m}, {@code 2g}, {@code 10m},
 * {@code 2h}. {@code 0} means "no limit" for both.
 */
public final class Quantities {
    private Quantities() {}

    /**
     * A size in bytes: a whole number, optionally followed by {@code k}, {@code m}, {@code g} or
     * {@code t} (powers of 1024, either case; a trailing {@code b} is allowed: {@code 500mb}).
     *
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    public static long bytes(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1); // "500mb" -> "500m"
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                case 't' -> shift = 40;
                default -> shift = -1;
            }
            if (shift >= 0) s = s.substring(0, s.length() - 1);
            else shift = 0;
        }
        long n = number(s, text, "a size such as 500m, 2g or 1048576 (bytes)");
        if (n > Long.MAX_VALUE >> shift) throw new IllegalArgumentException("size '" + text + "' is too large");
        return n << shift;
    }

    /**
     * A duration in milliseconds: {@code 0}, or a whole number followed by {@code ms}, {@code s},
     * {@code m}, {@code h} or {@code d}.
     *
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    public static long millis(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        String what = "a duration such as 30s, 10m, 2h or 7d (0 = no limit)";
        if (s.equals("0")) return 0;
        TimeUnit unit;
        int cut;
        if (s.endsWith("ms")) {
            unit = TimeUnit.MILLISECONDS;
            cut = 2;
        } else if (s.endsWith("s")) {
            unit = TimeUnit.SECONDS;
            cut = 1;
        } else if (s.endsWith("m")) {
            unit = TimeUnit.MINUTES;
            cut = 1;
        } else if (s.endsWith("h")) {
            unit = TimeUnit.HOURS;
            cut = 1;
        } else if (s.endsWith("d")) {
            unit = TimeUnit.DAYS;
            cut = 1;
        } else {
            throw new IllegalArgumentException("'" + text + "' has no unit: expected " + what);
        }
        long n = number(s.substring(0, s.length() - cut), text, what);
        long ms = unit.toMillis(n);
        if (ms == Long.MAX_VALUE) throw new IllegalArgumentException("duration '" + text + "' is too large");
        return ms;
    }

    private static long number(String digits, String text, String what) {
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("'" + text + "' is not " + what);
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
    }
}
