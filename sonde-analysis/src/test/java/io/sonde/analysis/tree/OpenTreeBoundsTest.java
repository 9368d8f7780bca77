package io.sonde.analysis.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.RecordHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link CallTreeBuilder#limitOpenTrees}: the bounds of a builder that follows a stream without end. */
class OpenTreeBoundsTest {
    private final List<String> completed = new ArrayList<>();
    private final CallTreeBuilder b = new CallTreeBuilder(new OperationTable(), e -> completed.add(e.thread().threadId() + ":" + e.operation().name()),
            name -> true, ProbeCost.NONE);
    private long time = 1_000;

    OpenTreeBoundsTest() {
        b.onAgent(new AgentInfo(0, new UUID(1, 1), "h", 1));
        b.onProbeDef(0, 1, "A.run", "()V");
        b.onProbeDef(0, 2, "A.step", "()V");
    }

    private void enter(long thread, int probe) {
        b.onEnter(0, thread, probe, time++, RecordHandler.NO_CPU);
    }

    private void exit(long thread, int probe) {
        b.onExit(0, thread, probe, time++, RecordHandler.NO_CPU, RecordHandler.NO_EXCEPTION);
    }

    @Test
    void theTreeOpenLongestIsAbandonedWhenTooManyAreOpenAndItsThreadWaitsForItsNextTraceStart() {
        b.limitOpenTrees(100, 3);
        for (long t = 1; t <= 3; t++) {
            b.onTraceStart(0, t, t, 0, -1, RecordHandler.NO_HANDOFF);
            enter(t, 1); // open: thread 1 first, so the oldest
        }
        b.onTraceStart(0, 4, 4, 0, -1, RecordHandler.NO_HANDOFF);
        enter(4, 1);
        assertThat(b.counters().abandonedTraces).isEqualTo(1);
        assertThat(b.counters().discardedOpenExecutions).isEqualTo(1);
        // thread 1's records are skipped until its next trace start; the others complete
        enter(1, 2);
        exit(1, 2);
        exit(1, 1);
        for (long t = 2; t <= 4; t++) exit(t, 1);
        assertThat(completed).containsExactly("2:A.run", "3:A.run", "4:A.run");
        b.onTraceStart(0, 1, 5, 0, -1, RecordHandler.NO_HANDOFF);
        enter(1, 1);
        exit(1, 1);
        assertThat(completed).hasSize(4).endsWith("1:A.run");
        assertThat(b.counters().abandonedTraces).as("never more than 3 open since").isEqualTo(1);
        assertThat(b.openExecutions()).isZero();
    }

    @Test
    void aTreeDeeperThanTheBoundIsDroppedAndCounted() {
        b.limitOpenTrees(3, 10);
        b.onTraceStart(0, 1, 1, 0, -1, RecordHandler.NO_HANDOFF);
        enter(1, 1);
        enter(1, 2);
        enter(1, 2);
        enter(1, 2); // the fourth open execution
        assertThat(b.counters().tooDeepTraces).isEqualTo(1);
        assertThat(b.openExecutions()).isZero();
        exit(1, 2);
        assertThat(completed).isEmpty();
        b.onTraceStart(0, 1, 2, 0, -1, RecordHandler.NO_HANDOFF);
        enter(1, 1);
        enter(1, 2);
        enter(1, 2);
        exit(1, 2);
        exit(1, 2);
        exit(1, 1);
        assertThat(completed).containsExactly("1:A.step", "1:A.step", "1:A.run");
    }

    @Test
    void idleThreadsAreForgottenSoManyShortLivedThreadsStayBounded() {
        b.limitOpenTrees(10, 4);
        for (long t = 1; t <= 10_000; t++) {
            b.onTraceStart(0, t, t, 0, -1, RecordHandler.NO_HANDOFF);
            enter(t, 1);
            exit(t, 1);
        }
        assertThat(completed).hasSize(10_000);
        assertThat(b.counters().abandonedTraces).isZero();
        assertThat(b.threadsTracked()).isLessThanOrEqualTo(8);
    }

    @Test
    void boundsBelowOneAreRefused() {
        assertThatThrownBy(() -> b.limitOpenTrees(0, 5)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("depth 0");
    }
}
