package io.sonde.agent.pattern;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GlobTest {

    @Test
    void starMatchesAnyRunIncludingDotsAndQuestionMarkOneCharacter() {
        Glob g = Glob.of("com.acme.*.get*");
        assertThat(g.matches("com.acme.Shop.getPrice")).isTrue();
        assertThat(g.matches("com.acme.sub.Shop.get")).isTrue();
        assertThat(g.matches("com.acme.Shop.setPrice")).isFalse();
        assertThat(g.matches("com.acmeX.Shop.getPrice")).isFalse();
        assertThat(Glob.of("a?c").matches("abc")).isTrue();
        assertThat(Glob.of("a?c").matches("ac")).isFalse();
        assertThat(Glob.of("*").matches("")).isTrue();
        assertThat(Glob.of("").matches("")).isTrue();
        assertThat(Glob.of("").matches("x")).isFalse();
        assertThat(Glob.of("Outer$Inner.*").matches("Outer$Inner.run")).isTrue();
    }

    @Test
    void prefixTestSaysWhetherSomeCompletionCanMatch() {
        Glob g = Glob.of("com.acme.*.get*");
        assertThat(g.couldMatchWithPrefix("com.acme.Shop.")).isTrue();
        assertThat(g.couldMatchWithPrefix("com.")).isTrue();
        assertThat(g.couldMatchWithPrefix("org.acme.Shop.")).isFalse();
        assertThat(Glob.of("com.acme.Shop.get").couldMatchWithPrefix("com.acme.Shop2.")).isFalse();
        assertThat(Glob.of("*.main").couldMatchWithPrefix("x.y.Z.")).isTrue();
    }

    /** Property: agrees with the equivalent regular expression on seeded random patterns and inputs. */
    @Test
    void agreesWithRegularExpressions() {
        Random random = new Random(20261122L);
        String alphabet = "ab.$";
        for (int n = 0; n < 3000; n++) {
            String pattern = randomString(random, "ab.*?", 6);
            String input = randomString(random, alphabet, 8);
            Pattern regex = Pattern.compile(toRegex(pattern));
            Glob g = Glob.of(pattern);
            assertThat(g.matches(input)).as("'%s' on '%s'", pattern, input).isEqualTo(regex.matcher(input).matches());
            // prefix viability: the regex either matches or ran into the end of the input (so
            // some longer input could still match)
            java.util.regex.Matcher m = regex.matcher(input);
            boolean viable = m.matches() || m.hitEnd();
            assertThat(g.couldMatchWithPrefix(input)).as("prefix '%s' of '%s'", input, pattern).isEqualTo(viable);
        }
    }

    private static String randomString(Random r, String chars, int maxLength) {
        int len = r.nextInt(maxLength + 1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < len; i++) {
            b.append(chars.charAt(r.nextInt(chars.length())));
        }
        return b.toString();
    }

    private static String toRegex(String glob) {
        StringBuilder b = new StringBuilder();
        for (char c : glob.toCharArray()) {
            if (c == '*') {
                b.append(".*");
            } else if (c == '?') {
                b.append('.');
            } else {
                b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return b.toString();
    }

    /**
     * The shortcut for a literal, or a literal with one trailing star, answers as the automaton
     * does: against the same language written with two stars ({@code p**}, which takes the
     * automaton), on seeded random strings over a small alphabet, full matches and prefixes alike.
     */
    @Test
    void literalAndTrailingStarShortcutsAgreeWithTheAutomaton() {
        Random r = new Random(19);
        String alphabet = "ab.$";
        int agreedMatches = 0;
        for (int round = 0; round < 3000; round++) {
            String literal = random(r, alphabet, r.nextInt(4));
            String s = random(r, alphabet, r.nextInt(6));
            Glob prefix = Glob.of(literal + "*");
            Glob automaton = Glob.of(literal + "**");
            assertThat(prefix.matches(s)).as(literal + "* on " + s).isEqualTo(automaton.matches(s));
            assertThat(prefix.couldMatchWithPrefix(s)).as(literal + "* prefix " + s).isEqualTo(automaton.couldMatchWithPrefix(s));
            assertThat(Glob.of(literal).matches(s)).as(literal + " on " + s).isEqualTo(literal.equals(s));
            assertThat(Glob.of(literal).couldMatchWithPrefix(s)).as(literal + " prefix " + s).isEqualTo(literal.startsWith(s));
            agreedMatches += prefix.matches(s) ? 1 : 0;
        }
        assertThat(agreedMatches).as("both outcomes are exercised").isBetween(100, 2900);
    }

    private static String random(Random r, String alphabet, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString();
    }
}
