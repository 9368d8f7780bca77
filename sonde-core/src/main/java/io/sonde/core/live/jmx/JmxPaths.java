package io.sonde.core.live.jmx;

import javax.management.ObjectName;

/**
 * Paths of bridged MBeans: {@code jmx/<domain>/<key property list>}, the key properties in the
 * order the MBean was registered with ({@code jmx/java.lang/type=MemoryPool,name=G1%20Eden%20Space}).
 * Characters a tree name may not hold ({@code / * ? #}, whitespace, control characters) and
 * {@code %} itself are escaped as {@code %XX} (two hex digits, for characters up to U+00FF) or
 * {@code %uXXXX}, so the mapping can be reversed ({@link #unescape}).
 */
public final class JmxPaths {
    /** The object under which every bridged MBean's domain hangs. */
    public static final String ROOT = "jmx";

    /** The name of the empty string (never produced otherwise: a {@code %} is always escaped as {@code %25}). */
    private static final String EMPTY = "%_";

    private JmxPaths() {}

    /** {@code jmx/<domain>}, escaped. */
    public static String domainPath(ObjectName name) {
        return ROOT + "/" + escape(name.getDomain());
    }

    /** {@code jmx/<domain>/<key=value,...>}, escaped. */
    public static String objectPath(ObjectName name) {
        return domainPath(name) + "/" + escape(name.getKeyPropertyListString());
    }

    /** {@code s} as one tree name: refused characters and {@code %} escaped. */
    public static String escape(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (needsEscape(c)) {
                if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
                if (c <= 0xFF) {
                    b.append('%').append(hex(c >> 4)).append(hex(c));
                } else {
                    b.append("%u").append(hex(c >> 12)).append(hex(c >> 8)).append(hex(c >> 4)).append(hex(c));
                }
            } else if (b != null) {
                b.append(c);
            }
        }
        if (b != null) return b.toString();
        return s.isEmpty() ? EMPTY : s; // a tree name cannot be empty
    }

    /** The text {@link #escape} was given. */
    public static String unescape(String name) {
        if (EMPTY.equals(name)) return "";
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '%') {
                b.append(c);
            } else if (i + 1 < name.length() && name.charAt(i + 1) == 'u') {
                b.append((char) Integer.parseInt(name.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                b.append((char) Integer.parseInt(name.substring(i + 1, i + 3), 16));
                i += 2;
            }
        }
        return b.toString();
    }

    private static boolean needsEscape(char c) {
        return c == '/' || c == '*' || c == '?' || c == '#' || c == '%' || Character.isWhitespace(c)
                || Character.isISOControl(c) || Character.isSpaceChar(c);
    }

    private static char hex(int v) {
        return Character.forDigit(v & 0xF, 16);
    }
}
