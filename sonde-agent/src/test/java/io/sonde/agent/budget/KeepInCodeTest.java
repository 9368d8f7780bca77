package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a budget step leaves its probes in the code, switched off, instead of re-transforming their classes. */
class KeepInCodeTest {

    @Test
    void aStepWhoseChecksFitUnderATenthOfTheBudgetStaysInTheCode() {
        // budget 5 %: the checks may take 0.5 % of the application's CPU time
        assertThat(BudgetController.keepInCode(0, 0.004, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0, 0.005, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0, 0.006, 0.05)).isFalse();
    }

    @Test
    void theChecksOfEarlierStepsLeftInTheCodeCountAgainstTheSameShare() {
        assertThat(BudgetController.keepInCode(0.003, 0.001, 0.05)).isTrue();
        assertThat(BudgetController.keepInCode(0.003, 0.0025, 0.05)).isFalse();
    }

    @Test
    void aStepWithoutAMeasurableApplicationTimeLeavesTheCode() {
        assertThat(BudgetController.keepInCode(0, Double.POSITIVE_INFINITY, 0.05)).isFalse();
        assertThat(BudgetController.keepInCode(0, Double.NaN, 0.05)).isFalse();
    }
}
