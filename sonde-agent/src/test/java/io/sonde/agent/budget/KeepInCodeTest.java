package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a budget step leaves its probes in the code, switched off, instead of re-transforming their classes. */
class KeepInCodeTest {

    @Test
    void aStepWhoseProbesCostLessThanATenthOfTheBudgetStaysInTheCode() {
        // budget 5 %: the probes left in the code may take 0.5 % of the application's CPU time
        assertThat(BudgetController.keepInCode(0, 0.004, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0, 0.005, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0, 0.006, 0.05)).isFalse();
    }

    @Test
    void theProbesEarlierStepsLeftInTheCodeCountAgainstTheSameShare() {
        assertThat(BudgetController.keepInCode(0.003, 0.001, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0.003, 0.0025, 0.05)).isFalse();
    }

    @Test
    void aStepWithoutAMeasurableApplicationTimeLeavesTheCode() {
        assertThat(BudgetController.keepInCode(0, Double.POSITIVE_INFINITY, 0.05)).isFalse();
        assertThat(BudgetController.keepInCode(0, Double.NaN, 0.05)).isFalse();
    }

    @Test
    void aStepThatReTransformsAClassTakesOutTheProbesLeftInItsCodeStillOff() {
        Map<String, Double> kept = new LinkedHashMap<>();
        kept.put("a.B.small", 0.001);
        kept.put("a.B.back", 0.001); // switched on again by an operator: stays in the code
        kept.put("a.C.other", 0.002); // another class: not re-transformed by this step
        List<String> out = BudgetController.withKeptOfSameClasses(List.of("a.B.hot", "a.D.hot"), kept, n -> !n.equals("a.B.back"));
        assertThat(out).containsExactly("a.B.hot", "a.D.hot", "a.B.small");
        assertThat(kept).containsOnlyKeys("a.B.back", "a.C.other");
    }

    @Test
    void theClassOfAProbeIsItsNameUpToTheLastDot() {
        assertThat(BudgetController.classOf("org.h2.mvstore.Page$Leaf.getValue")).isEqualTo("org.h2.mvstore.Page$Leaf");
        assertThat(BudgetController.classOf("noDot")).isEmpty();
    }
}
