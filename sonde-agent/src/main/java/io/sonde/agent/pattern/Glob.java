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
    /**
     * The literal part when the pattern is a literal ({@link #LITERAL}) or a literal then one
     * trailing {@code *} ({@link #PREFIX}): the common shapes ({@code org.h2.*}), matched without
     * the automaton, which the weaver otherwise runs for every method of every class it weaves.
     */
    private final String literal;
    private final int shape;
    private static final int LITERAL = 0;
    private static final int PREFIX = 1;
    private static final int GENERAL = 2;

    private Glob(String text) {
        this.text = text;
        this.pattern = text.toCharArray();
        int star = text.indexOf('*');
        if (text.indexOf('?') >= 0 || (star >= 0 && star != text.length() - 1)) {
            shape = GENERAL;
            literal = null;
        } else {
            shape = star < 0 ? LITERAL : PREFIX;
            literal = star < 0 ? text : text.substring(0, star);
        }
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
        if (shape == LITERAL) {
            return literal.contentEquals(s);
        }
        if (shape == PREFIX) {
            return startsWith(s, literal);
        }
        boolean[] states = run(s);
        return states != null && states[pattern.length];
    }

    /** True when at least one string that starts with {@code prefix} matches. */
    public boolean couldMatchWithPrefix(CharSequence prefix) {
        if (shape == LITERAL) {
            return startsWith(literal, prefix);
        }
        if (shape == PREFIX) {
            return startsWith(prefix, literal) || startsWith(literal, prefix);
        }
        return run(prefix) != null;
    }

    private static boolean startsWith(CharSequence s, CharSequence prefix) {
        int n = prefix.length();
        if (s.length() < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
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
