package io.sonde.dashboard.rates;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentRateTest {
    private static final long T0 = 1_700_000_000_000L; // a whole second

    @Test
    void averagesTheWholeSecondsOfTheWindowBeforeTheCurrentOne() {
        RecentRate r = new RecentRate();
        assertThat(r.perSecond(T0)).as("nothing counted: zero").isEqualTo(0.0);
        r.add(T0 + 100, 50);
        assertThat(r.perSecond(T0 + 900)).as("the first second is not whole yet").isNull();
        r.add(T0 + 1_500, 30); // second 1, still filling
        assertThat(r.perSecond(T0 + 1_600)).isEqualTo(50.0);
        assertThat(r.perSecond(T0 + 2_000)).isEqualTo(40.0); // (50 + 30) / 2
        // 100 per second for 20 seconds: the window forgets the start
        for (int s = 2; s < 22; s++) r.add(T0 + s * 1000L, 100);
        assertThat(r.perSecond(T0 + 22_000)).isEqualTo(100.0);
        assertThat(r.total()).isEqualTo(50 + 30 + 2000);
        // quiet afterwards: the rate falls to zero once the window has passed
        assertThat(r.perSecond(T0 + 27_000)).isEqualTo(50.0);
        assertThat(r.perSecond(T0 + 40_000)).isEqualTo(0.0);
        assertThat(r.total()).as("the total stays").isEqualTo(2080);
    }
}
