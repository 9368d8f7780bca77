package io.sonde.core.live.mib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
