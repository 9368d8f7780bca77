package io.sonde.analysis.tree;

import static io.sonde.analysis.Golden.TID;
import static io.sonde.analysis.Golden.US;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import io.sonde.analysis.ScriptedSource;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.input.LogSource;
import io.sonde.format.write.LogFileWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallTreeBuilderTest {
    @TempDir
    Path dir;

    /**
     * Probe ids are u32 values read from the input: a file of a few hundred bytes defining probe
     * 2^31-2 must not make the builder allocate an array of that many entries (it ran out of
     * memory), and ids of 2^31 and above (negative as int) keep their names.
     */
    @Test
    void hugeAndHighBitProbeIdsFromTheInputAllocateNothingInProportion() throws Exception {
        int huge = Integer.MAX_VALUE - 1;
        int highBit = 0xFFFF_FFF0;
        LogFileWriter w = new LogFileWriter(dir, new UUID(7, 7), 1, "h", 1_000_000_000_000L, 1000);
        w.probe(huge, "Crafted.huge", "()V").probe(highBit, "Crafted.highBit", "()V").thread(TID, "t");
        w.traceStart(TID, 1, 0, -1).enter(TID, huge, 2000).enter(TID, highBit, 2100).exit(TID, highBit, 2200).exit(TID, huge, 3000);
        w.close();
        AnalysisResult r = Analyzer.run(new LogSource(List.of(w.segmentFile(0))), new AnalysisOptions());
        assertThat(r.problems()).isEmpty();
        assertThat(r.trees()).hasSize(1);
        assertThat(r.trees().get(0).nodes()).extracting(n -> n.operation().name()).containsExactly("Crafted.huge", "Crafted.highBit");
    }

    /**
     * A frame header reads the wall clock, then the monotonic one. A writer preempted between the two gives a frame
     * whose offset lies too low (2.5 ms on a loaded CI machine, where an OTLP child span then started before its
     * parent): ignored, as is jitter either way (a rising offset taken frame by frame started a child 48 ns before its
     * parent, whose start is converted later). A wall clock stepped back is followed once every frame for a second says
     * so; one stepped forward at once.
     */
    @Test
    void aLateClockReadNeverStartsAChildBeforeItsParentWhileClockStepsAreFollowed() {
        long off = ScriptedSource.WALL_OFFSET;
        long s1 = 1_000_000_000L;
        ScriptedSource s = new ScriptedSource().probe(1, "A.parent").probe(2, "A.child").thread(TID, "t")
                .trace(TID, 1).enter(TID, 1, 1000)
                .frame(off - 2_500_000, 1100).enter(TID, 2, 1200).exit(TID, 2, 1300)
                .frame(off + 300, 1350).exit(TID, 1, 1400)
                .frame(off - s1, 2_000_000).frame(off - s1, s1).trace(TID, 2).enter(TID, 1, s1 + 10).exit(TID, 1, s1 + 20)
                .frame(off - s1, s1 + 2_000_000).trace(TID, 3).enter(TID, 1, s1 + 2_000_010).exit(TID, 1, s1 + 2_000_020)
                .frame(off + 5 * s1, s1 + 3_000_000).trace(TID, 4).enter(TID, 1, s1 + 3_000_010).exit(TID, 1, s1 + 3_000_020);
        AnalysisResult r = analyse(s, new AnalysisOptions());
        assertThat(r.trees()).hasSize(4);
        List<TreeNode> first = r.trees().get(0).nodes();
        assertThat(first.get(0).startWallNanos()).as("parent").isEqualTo(off + 1000);
        assertThat(first.get(1).startWallNanos()).as("child, in the frame read late").isEqualTo(off + 1200);
        assertThat(r.trees().get(1).nodes().get(0).startWallNanos()).as("jitter (+300 ns) and a step back lasting less than a second")
                .isEqualTo(off + s1 + 10);
        assertThat(r.trees().get(2).nodes().get(0).startWallNanos()).as("the step back, a second on")
                .isEqualTo(off - s1 + s1 + 2_000_010);
        assertThat(r.trees().get(3).nodes().get(0).startWallNanos()).as("a step forward").isEqualTo(off + 5 * s1 + s1 + 3_000_010);
    }

    private static AnalysisResult analyse(ScriptedSource s, AnalysisOptions o) {
        return Analyzer.run(s, o);
    }

    private static List<String> rows(TraceTree t) {
        List<String> out = new ArrayList<>();
        for (TreeNode n : t.nodes()) {
            out.add(n.depth() + " " + n.operation().name() + " #" + n.orderIndex() + " wall " + n.wallInclusive() / US + "/" + n.wallExclusive() / US
                    + " cpu " + n.cpuInclusive() / US + "/" + n.cpuExclusive() / US);
        }
        return out;
    }

    @Test
    void rebuildsTheGoldenTreeWithInclusiveAndExclusiveWallAndCpuTime() {
        AnalysisResult r = analyse(Golden.orderTrace(Golden.defs(), 0), new AnalysisOptions());
        assertThat(r.trees()).hasSize(1);
        TraceTree t = r.trees().get(0);
        assertThat(t.traceId()).isEqualTo(0xA1);
        assertThat(t.thread().name()).isEqualTo("worker-1");
        assertThat(t.truncated()).isFalse();
        assertThat(rows(t)).containsExactly(
                "0 Shop.order #0 wall 1500/700 cpu 1000/400",
                "1 Shop.price #1 wall 500/300 cpu 350/230",
                "2 Db.query #2 wall 200/200 cpu 120/120",
                "1 Db.query #3 wall 300/300 cpu 250/250");
        assertThat(r.counters().executions).isEqualTo(4);
        assertThat(r.counters().traces).isEqualTo(1);
        assertThat(r.counters().records).isEqualTo(9);
        assertThat(r.partial()).isFalse();
    }

    @Test
    void perturbationCorrectionSubtractsOneProbeCostPerNestedExecution() {
        AnalysisOptions o = new AnalysisOptions();
        o.probeCost = new ProbeCost(10 * US, 5 * US);
        TraceTree t = analyse(Golden.orderTrace(Golden.defs(), 0), o).trees().get(0);
        // order: 3 nested executions, 2 direct callees; price: 1 and 1; the queries none.
        assertThat(rows(t)).containsExactly(
                "0 Shop.order #0 wall 1470/680 cpu 985/390",
                "1 Shop.price #1 wall 490/290 cpu 345/225",
                "2 Db.query #2 wall 200/200 cpu 120/120",
                "1 Db.query #3 wall 300/300 cpu 250/250");
    }

    @Test
    void aGapDiscardsTheOpenStackAndTheThreadResynchronisesAtTheNextTraceStart() {
        ScriptedSource s = Golden.defs()
                .trace(TID, 1)
                .enter(TID, 1, 0)
                .enter(TID, 2, 10 * US)
                .gap(TID, 5)
                .exit(TID, 1, 50 * US) // belongs to the broken trace: skipped
                .enter(TID, 3, 60 * US) // still before the next TRACE_START: skipped
                .exit(TID, 3, 70 * US);
        Golden.orderTrace(s, 100_000 * US);
        AnalysisResult r = analyse(s, new AnalysisOptions());
        assertThat(r.counters().gaps).isEqualTo(1);
        assertThat(r.counters().droppedRecords).isEqualTo(5);
        assertThat(r.counters().discardedOpenExecutions).isEqualTo(2);
        assertThat(r.counters().skippedUnsynchronised).isEqualTo(3);
        assertThat(r.trees()).hasSize(1);
        assertThat(r.trees().get(0).traceId()).isEqualTo(0xA1);
        assertThat(r.counters().executions).isEqualTo(4);
    }

    @Test
    void aMismatchedExitIsCountedAndTheStackDiscarded() {
        ScriptedSource s = Golden.defs()
                .trace(TID, 1)
                .enter(TID, 1, 0)
                .enter(TID, 2, 10 * US)
                .exit(TID, 3, 20 * US);
        Golden.orderTrace(s, 1000 * US);
        AnalysisResult r = analyse(s, new AnalysisOptions());
        assertThat(r.counters().mismatchedExits).isEqualTo(1);
        assertThat(r.counters().discardedOpenExecutions).isEqualTo(2);
        assertThat(r.counters().executions).isEqualTo(4);
        assertThat(r.trees()).extracting(TraceTree::traceId).containsExactly(0xA1L);
    }

    @Test
    void executionsStillOpenAtTheEndAreCountedNotAnalysed() {
        ScriptedSource s = Golden.defs().trace(TID, 1).enter(TID, 1, 0).enter(TID, 2, 5).exit(TID, 2, 9);
        AnalysisResult r = analyse(s, new AnalysisOptions());
        assertThat(r.counters().openAtEnd).isEqualTo(1);
        assertThat(r.counters().executions).isEqualTo(1);
        assertThat(r.trees()).isEmpty();
    }

    @Test
    void exceptionsAreNamedAndNestedTracesOnTwoThreadsStaySeparate() {
        ScriptedSource s = Golden.defs().thread(8, "worker-2").string(4, "java.io.IOException")
                .trace(TID, 1).trace(8, 2)
                .enter(TID, 1, 0)
                .enter(8, 2, 5)
                .enter(TID, 3, 10)
                .exitException(8, 2, 25, 4)
                .exit(TID, 3, 30)
                .exit(TID, 1, 40);
        AnalysisResult r = analyse(s, new AnalysisOptions());
        assertThat(r.trees()).hasSize(2);
        // two requests: in the order they started (trace 1 at 0, trace 2 at 5)
        assertThat(r.counters().joinedTraces).isEqualTo(2);
        TraceTree first = r.trees().get(1);
        assertThat(first.thread().name()).isEqualTo("worker-2");
        assertThat(first.root().exception()).isEqualTo("java.io.IOException");
        assertThat(first.root().wallInclusive()).isEqualTo(20);
        assertThat(first.root().cpuInclusive()).isEqualTo(Execution.UNKNOWN);
        TraceTree second = r.trees().get(0);
        assertThat(second.nodeCount()).isEqualTo(2);
        assertThat(second.root().wallExclusive()).isEqualTo(20);
    }

    @Test
    void keptTreesAreLimitedAndLargeTreesTruncatedButTimesStayExact() {
        ScriptedSource s = Golden.defs().trace(TID, 1).enter(TID, 1, 0);
        int n = CallTreeBuilder.MAX_KEPT_NODES + 10;
        for (int i = 0; i < n; i++) s.enter(TID, 3, 10L * i + 1).exit(TID, 3, 10L * i + 3);
        s.exit(TID, 1, 10L * n + 5);
        Golden.orderTrace(s, 1_000_000_000L);
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 1;
        AnalysisResult r = analyse(s, o);
        assertThat(r.trees()).hasSize(1);
        TraceTree t = r.trees().get(0);
        assertThat(t.truncated()).isTrue();
        assertThat(t.nodeCount()).isEqualTo(CallTreeBuilder.MAX_KEPT_NODES);
        assertThat(t.root().wallInclusive()).isEqualTo(10L * n + 5);
        assertThat(t.root().wallExclusive()).isEqualTo(10L * n + 5 - 2L * n);
        assertThat(r.counters().executions).isEqualTo(n + 1 + 4);
    }

    @Test
    void keptNodesOfOpenTracesOverAllThreadsStayWithinTheBudget() {
        ScriptedSource s = Golden.defs();
        int threads = 15;
        int children = 20_000;
        for (int t = 0; t < threads; t++) s.thread(100 + t, "w" + t).trace(100 + t, t + 1).enter(100 + t, 1, 0);
        // All roots are open at once while their callees come in, thread after thread.
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < children; i++) s.enter(100 + t, 3, 2L * i + 1).exit(100 + t, 3, 2L * i + 2);
        }
        for (int t = 0; t < threads; t++) s.exit(100 + t, 1, 2L * children + 5);
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = threads;
        AnalysisResult r = analyse(s, o);
        assertThat(r.trees()).hasSize(threads);
        long kept = r.trees().stream().mapToLong(TraceTree::nodeCount).sum();
        assertThat(kept).isLessThanOrEqualTo(CallTreeBuilder.MAX_OPEN_KEPT_NODES);
        assertThat(r.trees()).anyMatch(TraceTree::truncated);
        for (TraceTree t : r.trees()) {
            assertThat(t.nodes()).hasSize(t.nodeCount()); // no orphans: every kept node is reachable
            assertThat(t.root().wallInclusive()).isEqualTo(2L * children + 5);
        }
        assertThat(r.counters().executions).isEqualTo((long) threads * (children + 1));
    }
}
