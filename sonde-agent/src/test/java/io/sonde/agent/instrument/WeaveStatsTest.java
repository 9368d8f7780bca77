package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The always-on weaving counters: totals, the slowest class, failures listed up to a bound. */
class WeaveStatsTest {

    @Test
    void countsWovenClassesTheSlowestAndFailuresWhetherOrNotStatsAreOn() {
        WeaveStats stats = new WeaveStats(false);
        assertThat(stats.counters()).contains("weave.classes=0", "weave.ms.per.class=-", "weave.max.class=-",
                "weave.failed=0");
        stats.woven("a/b/Fast", 1_000_000);
        stats.woven("a/b/Slow$Inner", 3_000_000);
        stats.woven("a/b/Mid", 2_000_000);
        for (int i = 0; i < WeaveStats.FAILURES_LISTED + 5; i++) {
            stats.failed("a.b.Bad" + i, new NoClassDefFoundError("x/Missing"));
        }
        assertThat(stats.wovenClasses()).isEqualTo(3);
        assertThat(stats.counters())
                .contains("weave.classes=3", "weave.ms=6.0", "weave.ms.per.class=2.000", "weave.max.ms=3.0",
                        "weave.max.class=a.b.Slow$Inner", "weave.failed=25",
                        "weave.failed.class a.b.Bad0: java.lang.NoClassDefFoundError: x/Missing")
                .filteredOn(c -> c.startsWith("weave.failed.class ")).hasSize(WeaveStats.FAILURES_LISTED);
        assertThat(stats.count(WeaveStats.Phase.TRANSFORM_WOVEN)).as("phases only with weave.stats=on").isZero();
    }
}
