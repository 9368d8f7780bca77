package io.sonde.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SondeLogTest {
    private long now = 1_000;
    private final List<String> lines = new ArrayList<>();
    private final SondeLog log = new SondeLog(() -> now, lines::add, 3, 60_000);

    @Test
    void printsUpToTheLimitPerKeyThenSuppressesAndReportsTheCountInTheNextWindow() {
        for (int i = 0; i < 10; i++) log.log("a", "failure " + i);
        assertThat(lines).containsExactly("sonde: failure 0", "sonde: failure 1", "sonde: failure 2");

        now += 59_999; // still the same window
        log.log("a", "failure 10");
        assertThat(lines).hasSize(3);

        now += 1; // the window is over
        log.log("a", "failure 11");
        assertThat(lines).hasSize(5);
        assertThat(lines.get(3)).startsWith("sonde: suppressed 8 more message(s) of kind 'a'");
        assertThat(lines.get(4)).isEqualTo("sonde: failure 11");
    }

    @Test
    void keysAreLimitedIndependently() {
        for (int i = 0; i < 5; i++) log.log("a", "a" + i);
        log.log("b", "b0");
        assertThat(lines).containsExactly("sonde: a0", "sonde: a1", "sonde: a2", "sonde: b0");
    }

    @Test
    void aQuietWindowPrintsNoSuppressionLine() {
        log.log("a", "x");
        now += 120_000;
        log.log("a", "y");
        assertThat(lines).containsExactly("sonde: x", "sonde: y");
    }

    @Test
    void badLimitsAreRejected() {
        assertThatThrownBy(() -> new SondeLog(() -> 0, lines::add, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SondeLog(() -> 0, lines::add, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
