package io.sonde.cli.live;

/** Pieces of JSON text for the commands' {@code --json} output. */
public final class JsonText {
    private JsonText() {}

    /** {@code s} as a JSON string literal (null as {@code null}). */
    public static String quote(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * An observed value (Long, Double, Boolean, String or null) as JSON: numbers and booleans bare,
     * strings quoted; a double that JSON cannot hold (NaN, infinite) as a string.
     */
    public static String value(Object v) {
        if (v == null) return "null";
        if (v instanceof Double d) return d.isNaN() || d.isInfinite() ? quote(d.toString()) : d.toString();
        if (v instanceof Long || v instanceof Boolean) return v.toString();
        return quote(v.toString());
    }
}
