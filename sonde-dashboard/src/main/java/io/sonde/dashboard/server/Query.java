package io.sonde.dashboard.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The parameters of a request's query string, with typed access whose errors name the parameter. */
public final class Query {
    private final Map<String, String> values = new LinkedHashMap<>();

    /** Parses a raw (still percent-encoded) query string; null or empty: no parameters. */
    public Query(String raw) {
        if (raw == null || raw.isEmpty()) return;
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            values.put(k, v);
        }
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("query: bad percent-encoding in '" + s + "'");
        }
    }

    /** The value, or null when absent or empty. */
    public String text(String name) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? null : v;
    }

    /** A whole number, or null when absent. */
    public Long whole(String name) {
        String v = text(name);
        if (v == null) return null;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(name + ": not a whole number: '" + v + "'");
        }
    }

    /** A whole number in [min, max], or {@code dflt} when absent. */
    public long whole(String name, long dflt, long min, long max) {
        Long v = whole(name);
        if (v == null) return dflt;
        if (v < min || v > max) throw ApiError.badRequest(name + ": must be between " + min + " and " + max + ", got " + v);
        return v;
    }

    /** A decimal number, or null when absent. */
    public Double decimal(String name) {
        String v = text(name);
        if (v == null) return null;
        try {
            double d = Double.parseDouble(v.trim());
            if (Double.isNaN(d) || Double.isInfinite(d)) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(name + ": not a number: '" + v + "'");
        }
    }
}
