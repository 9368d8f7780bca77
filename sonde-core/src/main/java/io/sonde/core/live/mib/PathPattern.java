package io.sonde.core.live.mib;

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
        // Positions in the path are the start index of its next segment; past the end (length + 1)
        // none is left. The root "" has no segment at all. No allocation: a subscription's pattern
        // is matched against every source created while it stands.
        return match(0, path, path.isEmpty() ? 1 : 0);
    }

    private boolean match(int si, String path, int pi) {
        int end = path.length();
        if (si == segments.length) return pi > end;
        if (segments[si].equals(ANY_SEGMENTS)) {
            for (int k = pi;;) {
                if (match(si + 1, path, k)) return true;
                if (k > end) return false;
                int slash = path.indexOf('/', k);
                k = slash < 0 ? end + 1 : slash + 1;
            }
        }
        if (pi > end) return false;
        int slash = path.indexOf('/', pi);
        int segEnd = slash < 0 ? end : slash;
        return segmentMatches(segments[si], 0, path, pi, segEnd) && match(si + 1, path, segEnd + 1);
    }

    /** Whether {@code glob} from {@code gi} matches {@code s} from {@code i} to {@code sEnd}. */
    private static boolean segmentMatches(String glob, int gi, String s, int i, int sEnd) {
        while (gi < glob.length()) {
            char g = glob.charAt(gi);
            if (g == '*') {
                for (int k = i; k <= sEnd; k++) {
                    if (segmentMatches(glob, gi + 1, s, k, sEnd)) return true;
                }
                return false;
            }
            if (i == sEnd || (g != '?' && g != s.charAt(i))) return false;
            gi++;
            i++;
        }
        return i == sEnd;
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
