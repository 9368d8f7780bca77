package io.sonde.agent.pattern;

import java.util.Objects;

/**
 * A wildcard pattern over plain strings: {@code *} matches any run of characters (dots included),
 * {@code ?} matches exactly one character, every other character matches itself.
 *
 * <p>Besides full matching it answers whether some string starting with a given prefix could match
 * ({@link #couldMatchWithPrefix}); the agent uses that to skip classes none of whose methods can
 * be selected, without looking at the methods. Matching runs only when classes are transformed
 * or probes are switched, never on the hot path.
 */
public final class Glob {

    private final String text;
    private final char[] pattern;

    private Glob(String text) {
        this.text = text;
        this.pattern = text.toCharArray();
    }

    /** Compiles a wildcard pattern; an empty pattern matches only the empty string. */
    public static Glob of(String text) {
        return new Glob(Objects.requireNonNull(text, "text"));
    }

    /** The pattern as written. */
    public String text() {
        return text;
    }

    /** True when the whole of {@code s} matches. */
    public boolean matches(CharSequence s) {
        boolean[] states = run(s);
        return states != null && states[pattern.length];
    }

    /** True when at least one string that starts with {@code prefix} matches. */
    public boolean couldMatchWithPrefix(CharSequence prefix) {
        return run(prefix) != null;
    }

    /**
     * Simulates the pattern as a non-deterministic automaton whose states are positions in the
     * pattern; returns the state set after consuming {@code s}, or null when it became empty.
     */
    private boolean[] run(CharSequence s) {
        int n = pattern.length;
        boolean[] current = new boolean[n + 1];
        current[0] = true;
        closeOverStars(current);
        boolean[] next = new boolean[n + 1];
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            java.util.Arrays.fill(next, false);
            boolean any = false;
            for (int i = 0; i < n; i++) {
                if (!current[i]) {
                    continue;
                }
                char p = pattern[i];
                if (p == '*') {
                    next[i] = true;
                    any = true;
                } else if (p == '?' || p == c) {
                    next[i + 1] = true;
                    any = true;
                }
            }
            if (!any) {
                return null;
            }
            closeOverStars(next);
            boolean[] t = current;
            current = next;
            next = t;
        }
        return current;
    }

    /** A star may match the empty string: a state on a star also enables the position after it. */
    private void closeOverStars(boolean[] states) {
        for (int i = 0; i < pattern.length; i++) {
            if (states[i] && pattern[i] == '*') {
                states[i + 1] = true;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Glob && ((Glob) o).text.equals(text);
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
