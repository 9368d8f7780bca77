package io.sonde.core.live.mib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PathPatternTest {
    @Test
    void literalMatchesItselfOnly() {
        PathPattern p = PathPattern.parse("shop/orders/4711");
        assertThat(p.isLiteral()).isTrue();
        assertThat(p.matches("shop/orders/4711")).isTrue();
        assertThat(p.matches("shop/orders/47110")).isFalse();
        assertThat(p.matches("shop/orders")).isFalse();
    }

    @Test
    void starMatchesOneSegmentOrPartOfOne() {
        PathPattern p = PathPattern.parse("shop/orders/*");
        assertThat(p.matches("shop/orders/4711")).isTrue();
        assertThat(p.matches("shop/orders")).isFalse();
        assertThat(p.matches("shop/orders/4711/items")).isFalse();
        assertThat(PathPattern.parse("jvm/memory/heap*").matches("jvm/memory/heapUsed")).isTrue();
        assertThat(PathPattern.parse("jvm/memory/heap*").matches("jvm/memory/nonHeapUsed")).isFalse();
        assertThat(PathPattern.parse("a/?b").matches("a/xb")).isTrue();
        assertThat(PathPattern.parse("a/?b").matches("a/b")).isFalse();
    }

    @Test
    void doubleStarMatchesAnyNumberOfSegments() {
        PathPattern p = PathPattern.parse("jvm/**");
        assertThat(p.matches("jvm")).isTrue();
        assertThat(p.matches("jvm/gc")).isTrue();
        assertThat(p.matches("jvm/gc/count")).isTrue();
        assertThat(p.matches("system/load")).isFalse();
        PathPattern mid = PathPattern.parse("shop/**/items");
        assertThat(mid.matches("shop/items")).isTrue();
        assertThat(mid.matches("shop/orders/4711/items")).isTrue();
        assertThat(mid.matches("shop/orders/4711/total")).isFalse();
        assertThat(PathPattern.parse("**").matches("")).isTrue();
        assertThat(PathPattern.parse("").matches("")).isTrue();
        assertThat(PathPattern.parse("").matches("a")).isFalse();
    }

    @Test
    void badPatternsGetClearErrors() {
        assertThatThrownBy(() -> PathPattern.parse("shop//orders")).hasMessageContaining("empty segment 2");
        assertThatThrownBy(() -> PathPattern.parse("/shop")).hasMessageContaining("empty segment 1");
        assertThatThrownBy(() -> PathPattern.parse("shop/a**")).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> PathPattern.parse("shop/a b")).hasMessageContaining("whitespace");
        assertThatThrownBy(() -> PathPattern.parse(null)).hasMessageContaining("null");
    }

    @Test
    void literalPrefixAndSegments() {
        PathPattern p = PathPattern.parse("shop/orders/*/items");
        assertThat(p.literalPrefixLength()).isEqualTo(2);
        assertThat(p.segment(1)).isEqualTo("orders");
        assertThat(PathPattern.parse("**").literalPrefixLength()).isZero();
        assertThat(PathPattern.parse("a/b").literalPrefixLength()).isEqualTo(2);
    }

    /**
     * The in-place matcher agrees with a plain reference (split the path, match segment lists) on
     * seeded random patterns and paths over a small alphabet, so that many of them match.
     */
    @Test
    void matchingAgreesWithASplittingReference() {
        Random rnd = new Random(20261125L);
        String[] pieces = {"a", "b", "ab", "*", "?", "a*", "*b", "**"};
        String[] names = {"a", "b", "ab", "ba", "aab", "x"};
        int matched = 0;
        for (int n = 0; n < 20_000; n++) {
            StringBuilder pat = new StringBuilder();
            int segs = 1 + rnd.nextInt(4);
            for (int i = 0; i < segs; i++) pat.append(i == 0 ? "" : "/").append(pieces[rnd.nextInt(pieces.length)]);
            StringBuilder path = new StringBuilder();
            int parts = rnd.nextInt(5);
            for (int i = 0; i < parts; i++) path.append(i == 0 ? "" : "/").append(names[rnd.nextInt(names.length)]);
            PathPattern p = PathPattern.parse(pat.toString());
            boolean expected = referenceMatch(pat.toString().split("/"), 0, split(path.toString()), 0);
            assertThat(p.matches(path.toString())).as("%s against '%s'", pat, path).isEqualTo(expected);
            if (expected) matched++;
        }
        assertThat(matched).as("matches among the random cases").isGreaterThan(1_000);
    }

    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        if (!path.isEmpty()) parts.addAll(List.of(path.split("/", -1)));
        return parts;
    }

    private static boolean referenceMatch(String[] segs, int si, List<String> parts, int pi) {
        if (si == segs.length) return pi == parts.size();
        if (segs[si].equals("**")) {
            for (int k = pi; k <= parts.size(); k++) if (referenceMatch(segs, si + 1, parts, k)) return true;
            return false;
        }
        return pi < parts.size() && parts.get(pi).matches(segs[si].replace("?", ".").replace("*", ".*"))
                && referenceMatch(segs, si + 1, parts, pi + 1);
    }
}
