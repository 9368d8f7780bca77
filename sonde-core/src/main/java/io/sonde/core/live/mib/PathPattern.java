package io.sonde.core.live.mib;

import java.util.ArrayList;
import java.util.List;

/**
 * A glob over slash-separated paths: {@code *} matches any characters within one segment,
 * {@code ?} one character, and a whole segment {@code **} any number of segments (none too).
 * {@code ""} matches the root only. Immutable.
 */
public final class PathPattern {
    private static final String ANY_SEGMENTS = "**";

    private final String text;
    private final String[] segments;
    private final boolean literal;

    private PathPattern(String text, String[] segments, boolean literal) {
        this.text = text;
        this.segments = segments;
        this.literal = literal;
    }

    /** Parses {@code pattern}; a clear error names the bad segment. */
    public static PathPattern parse(String pattern) {
        if (pattern == null) throw new IllegalArgumentException("path pattern: null");
        if (pattern.isEmpty()) return new PathPattern("", new String[0], true);
        String[] segs = pattern.split("/", -1);
        boolean literal = true;
        for (int i = 0; i < segs.length; i++) {
            String s = segs[i];
            if (s.isEmpty()) {
                throw new IllegalArgumentException("path pattern '" + pattern + "': empty segment " + (i + 1)
                        + " (a leading, trailing or double '/')");
            }
            if (s.contains(ANY_SEGMENTS) && !s.equals(ANY_SEGMENTS)) {
                throw new IllegalArgumentException("path pattern '" + pattern + "': '**' must be a whole segment, not '"
                        + s + "'");
            }
            for (int c = 0; c < s.length(); c++) {
                if (Character.isWhitespace(s.charAt(c)) || s.charAt(c) == '#') {
                    throw new IllegalArgumentException("path pattern '" + pattern + "': segment '" + s
                            + "' contains whitespace or '#'");
                }
            }
            if (s.indexOf('*') >= 0 || s.indexOf('?') >= 0) literal = false;
        }
        return new PathPattern(pattern, segs, literal);
    }

    /** How many leading segments have no wildcard (all of them for a literal pattern). */
    public int literalPrefixLength() {
        int n = 0;
        while (n < segments.length && segments[n].indexOf('*') < 0 && segments[n].indexOf('?') < 0) n++;
        return n;
    }

    /** Segment {@code i} of the pattern (0-based). */
    public String segment(int i) {
        return segments[i];
    }

    /** Whether the pattern has no wildcard (it names one path). */
    public boolean isLiteral() {
        return literal;
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    public boolean matches(String path) {
        if (literal) return text.equals(path);
        List<String> parts = split(path);
        return match(0, parts, 0);
    }

    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        if (path.isEmpty()) return parts;
        int start = 0;
        for (int i = 0; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                parts.add(path.substring(start, i));
                start = i + 1;
            }
        }
        return parts;
    }

    private boolean match(int si, List<String> parts, int pi) {
        if (si == segments.length) return pi == parts.size();
        if (segments[si].equals(ANY_SEGMENTS)) {
            for (int k = pi; k <= parts.size(); k++) {
                if (match(si + 1, parts, k)) return true;
            }
            return false;
        }
        return pi < parts.size() && segmentMatches(segments[si], 0, parts.get(pi), 0) && match(si + 1, parts, pi + 1);
    }

    private static boolean segmentMatches(String glob, int gi, String s, int i) {
        while (gi < glob.length()) {
            char g = glob.charAt(gi);
            if (g == '*') {
                for (int k = i; k <= s.length(); k++) {
                    if (segmentMatches(glob, gi + 1, s, k)) return true;
                }
                return false;
            }
            if (i == s.length() || (g != '?' && g != s.charAt(i))) return false;
            gi++;
            i++;
        }
        return i == s.length();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathPattern && ((PathPattern) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
