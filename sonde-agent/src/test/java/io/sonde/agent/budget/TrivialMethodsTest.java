package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The trivial-method rule: at most 6 bytes, not pinned, once per name, drained in order. */
class TrivialMethodsTest {
    @Test
    void leavesOutMethodsOfAtMostSixBytesOnceEachUnlessPinned() {
        TrivialMethods rule = new TrivialMethods(name -> name.startsWith("com.acme.Pinned."));
        assertThat(rule.leavesOut("com.acme.A.get", 5)).isTrue();
        assertThat(rule.leavesOut("com.acme.A.set", 6)).isTrue();
        assertThat(rule.leavesOut("com.acme.A.compute", 7)).as("one byte more: woven").isFalse();
        assertThat(rule.leavesOut("com.acme.Pinned.get", 1)).as("pinned").isFalse();
        // an operator switched it on again: the next weaving keeps it
        assertThat(rule.leavesOut("com.acme.A.get", 5)).isFalse();
        assertThat(rule.count()).as("counted when drained").isZero();

        Map<String, String> left = rule.drain();
        assertThat(left).containsOnlyKeys("com.acme.A.get", "com.acme.A.set");
        assertThat(left.keySet()).containsExactly("com.acme.A.get", "com.acme.A.set");
        assertThat(left.get("com.acme.A.get")).startsWith("left out of the code when first woven: a trivial method (5 byte(s)")
                .contains("MaxTrivialSize of 6");
        assertThat(rule.count()).isEqualTo(2);
        assertThat(rule.drain()).isEmpty();
        assertThat(rule.count()).isEqualTo(2);
    }
}
