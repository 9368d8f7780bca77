package io.sonde.agent.pattern;

import java.util.Objects;

/**
 * One line of a filter: include or exclude whatever the pattern matches.
 *
 * @param include true for an include rule, false for an exclude rule
 * @param glob the pattern
 */
public record Rule(boolean include, Glob glob) {

    public Rule {
        Objects.requireNonNull(glob, "glob");
    }

    /** An include rule for {@code pattern}. */
    public static Rule include(String pattern) {
        return new Rule(true, Glob.of(pattern));
    }

    /** An exclude rule for {@code pattern}. */
    public static Rule exclude(String pattern) {
        return new Rule(false, Glob.of(pattern));
    }

    @Override
    public String toString() {
        return (include ? "include " : "exclude ") + glob.text();
    }
}
