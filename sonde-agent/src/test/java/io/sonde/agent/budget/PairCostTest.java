package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The two calibrations the budget makes at start: an enter+exit pair, and a switched-off probe's check. */
class PairCostTest {

    @Test
    void aSwitchedOffProbesCheckCostsLessThanARecordedPair() {
        double pair = PairCost.calibrate();
        double check = PairCost.offCheck();
        // both are medians of thread CPU time; the pair writes two records and reads the clock
        // twice, the check is a load and a compare: tens of times apart, so the order holds under load
        assertThat(pair).isPositive().isFinite();
        assertThat(check).isPositive().isFinite().isLessThan(pair);
    }
}
