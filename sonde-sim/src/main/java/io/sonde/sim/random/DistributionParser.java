package io.sonde.sim.random;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads the text form of {@link Distribution#parse}; errors name the text and the problem. */
final class DistributionParser {
    private DistributionParser() {}

    static Distribution parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty distribution");
        }
        String t = text.trim();
        int open = t.indexOf('(');
        if (open < 0) {
            return Distribution.deterministic(time(t, text));
        }
        if (!t.endsWith(")")) {
            throw new IllegalArgumentException("distribution '" + text + "': missing ')' at the end");
        }
        String name = t.substring(0, open).trim().toLowerCase(Locale.ROOT);
        String inner = t.substring(open + 1, t.length() - 1);
        List<String> args = new ArrayList<>();
        for (String a : inner.split(",", -1)) {
            args.add(a.trim());
        }
        try {
            switch (name) {
                case "exp":
                case "exponential":
                    arity(args, 1, text);
                    return Distribution.exponential(time(args.get(0), text));
                case "det":
                case "deterministic":
                case "const":
                    arity(args, 1, text);
                    return Distribution.deterministic(time(args.get(0), text));
                case "uniform":
                    arity(args, 2, text);
                    return Distribution.uniform(time(args.get(0), text), time(args.get(1), text));
                case "erlang":
                    arity(args, 2, text);
                    int k;
                    try {
                        k = Integer.parseInt(args.get(0));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("distribution '" + text + "': phase count '" + args.get(0) + "' is not an integer");
                    }
                    return Distribution.erlang(k, time(args.get(1), text));
                case "hyperexp":
                case "hyperexponential": {
                    double[] p = new double[args.size()];
                    double[] m = new double[args.size()];
                    for (int i = 0; i < args.size(); i++) {
                        String[] pm = args.get(i).split(":", -1);
                        if (pm.length != 2) {
                            throw new IllegalArgumentException("distribution '" + text + "': branch '" + args.get(i)
                                    + "' must be PROBABILITY:MEAN");
                        }
                        p[i] = number(pm[0].trim(), text);
                        m[i] = time(pm[1].trim(), text);
                    }
                    return Distribution.hyperExponential(p, m);
                }
                case "empirical": {
                    double[] v = new double[args.size()];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = time(args.get(i), text);
                    }
                    return Distribution.empirical(v);
                }
                default:
                    throw new IllegalArgumentException("distribution '" + text + "': unknown kind '" + name
                            + "' (known: exp, det, uniform, erlang, hyperexp, empirical)");
            }
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("distribution '")) {
                throw e;
            }
            throw new IllegalArgumentException("distribution '" + text + "': " + e.getMessage(), e);
        }
    }

    private static void arity(List<String> args, int n, String text) {
        if (args.size() != n) {
            throw new IllegalArgumentException("distribution '" + text + "': expected " + n + " argument"
                    + (n == 1 ? "" : "s") + ", got " + args.size());
        }
    }

    /** A time in milliseconds; accepts the suffixes ms, us and s. */
    static double time(String s, String text) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        double scale = 1;
        if (v.endsWith("ms")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("us")) {
            v = v.substring(0, v.length() - 2);
            scale = 1e-3;
        } else if (v.endsWith("s")) {
            v = v.substring(0, v.length() - 1);
            scale = 1e3;
        }
        return number(v.trim(), text) * scale;
    }

    private static double number(String v, String text) {
        try {
            double d = Double.parseDouble(v);
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("distribution '" + text + "': '" + v + "' is not a number");
        }
    }
}
