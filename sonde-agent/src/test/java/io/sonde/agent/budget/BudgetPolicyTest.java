package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.config.SondeConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which probes a budget step picks: most frequent, shortest, deepest first, only as many as needed. */
class BudgetPolicyTest {
    static final double PAIR = 30;

    static ProbeLoad load(String name, long executions, double meanNanos, double depth) {
        return new ProbeLoad(name, executions, meanNanos, depth, executions * PAIR);
    }

    @Test
    void nothingIsPickedUnderBudget() {
        assertThat(BudgetPolicy.choose(List.of(load("a.B.hot", 1_000_000, 40, 3)), 0, PAIR)).isEmpty();
    }

    @Test
    void theHotShortDeepProbeGoesFirstAndOnlyAsManyAsCoverTheExcess() {
        ProbeLoad hot = load("a.B.tiny", 1_000_000, 40, 3);
        ProbeLoad sameCountButLong = load("a.B.slow", 1_000_000, 50_000, 3);
        ProbeLoad sameCountButShallow = load("a.B.top", 1_000_000, 40, 0);
        ProbeLoad cold = load("a.B.rare", 10, 40, 3);
        List<ProbeLoad> all = List.of(cold, sameCountButLong, sameCountButShallow, hot);
        assertThat(BudgetPolicy.choose(all, PAIR * 500_000, PAIR)).containsExactly(hot);
        assertThat(BudgetPolicy.choose(all, PAIR * 1_500_000, PAIR)).containsExactly(hot, sameCountButShallow);
        assertThat(BudgetPolicy.choose(all, PAIR * 2_500_000, PAIR)).containsExactly(hot, sameCountButShallow, sameCountButLong);
    }

    @Test
    void aMethodThatNeverCompletedInTheIntervalTellsMostAndGoesLast() {
        ProbeLoad running = load("a.B.loop", 1_000, -1, 0);
        ProbeLoad shortOne = load("a.B.get", 1_000, 40, 0);
        assertThat(BudgetPolicy.choose(List.of(running, shortOne), 1, PAIR)).containsExactly(shortOne);
    }

    @Test
    void settingsComeFromTheConfigurationAndPinsMatchProbeNames() {
        assertThat(BudgetSettings.of(SondeConfig.of(Map.of()))).isNull();
        BudgetSettings s = BudgetSettings.of(SondeConfig.of(Map.of("budget", "2.5", "budget.pin", "com.acme.Shop.*; *.checkout")));
        assertThat(s.percent()).isEqualTo(2.5);
        assertThat(s.intervalMillis()).isEqualTo(1000);
        assertThat(s.pinned("com.acme.Shop.order")).isTrue();
        assertThat(s.pinned("com.acme.Cart.checkout")).isTrue();
        assertThat(s.pinned("com.acme.Cart.add")).isFalse();
        assertThat(BudgetSettings.of(SondeConfig.of(Map.of("budget", "5%"))).percent()).isEqualTo(5);
    }

    @Test
    void calibrationGivesAPlausiblePairCost() {
        double ns = PairCost.calibrate();
        assertThat(ns).isBetween(1.0, 100_000.0);
    }
}
