package io.sonde.collector.handler;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a handler gets at {@link DataHandler#open}: the collector's output folder and the
 * collector's options ({@code name=value}, e.g. {@code database.url}); a handler reads the keys
 * starting with its own name.
 *
 * @param out the collector's output folder (the archive)
 * @param options all options given to the collector
 */
public record HandlerConfig(Path out, Map<String, String> options) {
    public HandlerConfig {
        options = Map.copyOf(new TreeMap<>(options));
    }

    /** The option's value, or the default if not given. */
    public String option(String key, String defaultValue) {
        return options.getOrDefault(key, defaultValue);
    }

    /** A positive integer option; a bad value is an error naming the key. */
    public int intOption(String key, int defaultValue) {
        String v = options.get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + ": expected a positive integer, got '" + v + "'");
        }
    }
}
