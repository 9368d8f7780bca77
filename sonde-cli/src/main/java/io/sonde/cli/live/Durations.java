package io.sonde.cli.live;

import io.sonde.cli.UsageError;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Command-line durations: a positive whole number with a unit, {@code 50ms}, {@code 2s}, {@code 1m}. */
final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m)");

    private Durations() {}

    /** Parses the value of {@code option}; a usage error names the option and the value. */
    static Duration parse(String option, String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageError(option + " '" + text + "': expected a duration such as 50ms, 2s or 1m");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
        if (d.isZero()) throw new UsageError(option + " '" + text + "': must be longer than 0");
        return d;
    }
}
