package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The in-situ cost per execution from a step's natural experiment, on scripted programs: a unit
 * of work costs the application {@code OWN} ns of its own, makes {@code STAYED} executions of
 * probes that stay on and {@code REMOVED} of probes a step removes, each costing {@code TRUE} ns.
 */
class ExecutionCostTest {
    static final double PRIOR = 50;
    static final long OWN = 500;
    static final long STAYED = 2;
    static final long REMOVED = 10;
    static final long TRUE = 100;

    /** The interval before the step: {@code work} units with every probe on. */
    static ExecutionCost.Before before(long work) {
        return new ExecutionCost.Before(work * (OWN + (STAYED + REMOVED) * TRUE), work * STAYED, work * REMOVED);
    }

    /** The application's CPU time of {@code work} units after the step (only the stayed probes on). */
    static long cpuAfter(long work) {
        return work * (OWN + STAYED * TRUE);
    }

    @Test
    void theStepRecoversTheTrueCostPerRemovedExecutionWhateverTheIntervalsLengths() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        assertThat(cost.nanos()).isEqualTo(PRIOR);
        double measured = cost.observe(before(100_000), cpuAfter(50_000), 50_000 * STAYED);
        assertThat(measured).isCloseTo(TRUE, within(1e-6));
        assertThat(cost.nanos()).isCloseTo(TRUE, within(1e-6));
        assertThat(cost.experiments()).isEqualTo(1);
        assertThat(cost.toString()).contains("100.0 ns", "prior 50.0", "1 experiment");
    }

    @Test
    void whatAnEarlierRunMeasuredIsTheEstimateFromTheStartAndThisRunsExperimentsJoinItByWeight() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        assertThat(cost.measured()).isNull();
        // five times the earlier run's pair is five times this run's: 250 ns at a prior of 50
        cost.restore(new BudgetState.Measured(5, 3_000_000, 2));
        assertThat(cost.nanos()).isEqualTo(250);
        assertThat(cost.experiments()).isZero();
        assertThat(cost.toString()).contains("250.0 ns", "0 experiment(s), 2 of earlier runs from budget.state");
        // this run measures 100 ns over 1,000,000 removed executions: (250 * 3 + 100 * 1) / 4
        cost.observe(before(100_000), cpuAfter(50_000), 50_000 * STAYED);
        assertThat(cost.nanos()).isCloseTo(212.5, within(1e-6));
        assertThat(cost.measured()).isEqualTo(new BudgetState.Measured(212.5 / PRIOR, 4_000_000, 3));
        // an earlier measure below its pair counts at the pair, as a new one would
        ExecutionCost low = new ExecutionCost(PRIOR);
        low.restore(new BudgetState.Measured(0.4, 1000, 1));
        assertThat(low.nanos()).isEqualTo(PRIOR);
        low.restore(null);
        assertThat(low.measured()).isEqualTo(new BudgetState.Measured(1, 1000, 1));
    }

    @Test
    void aProgramThatDidNotSpeedUpMeasuresBelowThePriorAndTheEstimateKeepsThePrior() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        ExecutionCost.Before b = before(100_000);
        // the same CPU per stayed execution after the step: the removed probes cost nothing measurable
        double measured = cost.observe(b, b.cpuNanos() / 2, b.stayed() / 2);
        assertThat(measured).isCloseTo(0, within(1e-6));
        assertThat(cost.lastNanos()).isCloseTo(0, within(1e-6));
        assertThat(cost.experiments()).isEqualTo(1);
        assertThat(cost.nanos()).isEqualTo(PRIOR);
    }

    @Test
    void theProgramsOwnSteadySpeedUpIsTakenOutAndASlowDownIsNot() {
        // 900 ns of CPU per stayed execution before the step, 1000 in the interval 1 s before it:
        // 10 % faster per second by itself, so 810 expected 1 s later without the step; 5 removed
        // executions per stayed one at 100 ns each leave 310
        ExecutionCost.Before b = new ExecutionCost.Before(90_000_000, 100_000, 500_000, 1000, 1_000_000_000);
        assertThat(b.drift(1_000_000_000)).isCloseTo(0.9, within(1e-9));
        assertThat(b.drift(2_000_000_000)).isCloseTo(0.81, within(1e-9));
        ExecutionCost cost = new ExecutionCost(PRIOR);
        assertThat(cost.observe(b, 31_000_000, 100_000, 1_000_000_000)).isCloseTo(100, within(1e-6));
        // without the earlier interval the same figures put the speed-up on the removed probes
        ExecutionCost.Before plain = new ExecutionCost.Before(90_000_000, 100_000, 500_000);
        assertThat(new ExecutionCost(PRIOR).observe(plain, 31_000_000, 100_000, 1_000_000_000)).isCloseTo(118, within(1e-6));
        // a program that got slower (800 -> 900 ns) is not extrapolated: no correction
        ExecutionCost.Before slower = new ExecutionCost.Before(90_000_000, 100_000, 500_000, 800, 1_000_000_000);
        assertThat(slower.drift(1_000_000_000)).isEqualTo(1);
        assertThat(new ExecutionCost(PRIOR).observe(slower, 31_000_000, 100_000, 1_000_000_000)).isCloseTo(118, within(1e-6));
    }

    @Test
    void experimentsAreWeightedByTheirRemovedExecutions() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        cost.observe(before(100_000), cpuAfter(100_000), 100_000 * STAYED); // 1,000,000 removed at 100 ns
        // a second program whose removed executions cost 400 ns, 3,000,000 of them
        ExecutionCost.Before b = new ExecutionCost.Before(300_000 * (OWN + STAYED * TRUE + REMOVED * 400), 300_000 * STAYED,
                300_000 * REMOVED);
        assertThat(cost.observe(b, cpuAfter(300_000), 300_000 * STAYED)).isCloseTo(400, within(1e-6));
        assertThat(cost.nanos()).isCloseTo((1 * 100 + 3 * 400) / 4.0, within(1e-6));
        assertThat(cost.experiments()).isEqualTo(2);
    }

    @Test
    void aStepTooSmallToStandOutOfTheNoiseMeasuresNothing() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        // 20,000 removed at the prior predict 1 ms of 100 ms: under a tenth
        ExecutionCost.Before small = new ExecutionCost.Before(100_000_000, 200_000, 20_000);
        assertThat(cost.measurable(small)).isFalse();
        assertThat(cost.observe(small, 50_000_000, 100_000)).isNaN();
        assertThat(cost.nanos()).isEqualTo(PRIOR);
        assertThat(cost.experiments()).isZero();
        assertThat(cost.lastNanos()).isNaN();
    }

    @Test
    void tooFewExecutionsOnEitherSideMeasureNothing() {
        ExecutionCost cost = new ExecutionCost(PRIOR);
        ExecutionCost.Before fewStayed = new ExecutionCost.Before(10_000_000, ExecutionCost.MIN_EXECUTIONS - 1, 1_000_000);
        assertThat(cost.measurable(fewStayed)).isFalse();
        ExecutionCost.Before fewRemoved = new ExecutionCost.Before(100_000, 1_000_000, ExecutionCost.MIN_EXECUTIONS - 1);
        assertThat(cost.measurable(fewRemoved)).isFalse();
        ExecutionCost.Before b = before(100_000);
        assertThat(cost.measurable(b)).isTrue();
        assertThat(cost.observe(b, cpuAfter(1_000), ExecutionCost.MIN_EXECUTIONS - 1)).isNaN();
        assertThat(cost.observe(b, 0, 100_000)).isNaN();
        assertThat(cost.experiments()).isZero();
    }

    @Test
    void aPriorThatIsNotPositiveIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> new ExecutionCost(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ExecutionCost").hasMessageContaining("0.0 ns");
        assertThatThrownBy(() -> new ExecutionCost(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
