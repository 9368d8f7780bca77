package io.sonde.analysis.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TreePrinterTest {
    static final String ROW = "%-40s %-20s %12s %12s %12s %12s %5d";

    private static String[] print(AnalysisResult r) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        new TreePrinter(new PrintStream(buf, true, StandardCharsets.UTF_8)).print(r.joinedTrees());
        return buf.toString(StandardCharsets.UTF_8).split("\\R");
    }

    private static String header() {
        return String.format("%-40s %-20s %12s %12s %12s %12s %5s", "Operation", "Thread", "Wall us", "CPU us", "Excl us", "Wait us", "Depth");
    }

    @Test
    void printsTheGoldenTreeLikeTheTraceBrowser() {
        AnalysisResult r = Analyzer.run(Golden.orderTrace(Golden.defs(), 0), new AnalysisOptions());
        assertThat(print(r)).containsExactly(
                "Trace 0xa1  (agent 0 00000000-0000-4000-8000-000000000001, host host-a, pid 42): 4 execution(s) in 1 piece(s) on 1 thread(s): worker-1",
                header(),
                String.format(ROW, "Shop.order", "worker-1", "1500.0", "1000.0", "700.0", "", 0),
                String.format(ROW, "  Shop.price", "worker-1", "500.0", "350.0", "300.0", "", 1),
                String.format(ROW, "    Db.query", "worker-1", "200.0", "120.0", "200.0", "", 2),
                String.format(ROW, "  Db.query", "worker-1", "300.0", "250.0", "300.0", "", 1));
    }

    @Test
    void printsOneTreeAcrossThreadsWithTheHandOffWaitAndEvents() {
        AnalysisResult r = Analyzer.run(Golden.handedOff(), new AnalysisOptions());
        assertThat(r.counters().joinedTraces).isEqualTo(1);
        assertThat(r.counters().linkedPieces).isEqualTo(1);
        assertThat(r.counters().unlinkedPieces).isEqualTo(1);
        assertThat(r.counters().handoffs).isEqualTo(1);
        assertThat(r.joinedTrees()).hasSize(2);
        JoinedTree j = r.joinedTrees().get(0);
        assertThat(j.pieces()).extracting(TraceTree::traceId).containsExactly(0x11L, 0x21L);
        assertThat(j.threads()).extracting(ThreadInfo::name).containsExactly("main", "pool-1");
        assertThat(j.pieces().get(1).handoffWaitNanos()).isEqualTo(3_500);
        assertThat(r.joinedTrees().get(1).unlinked()).isTrue();
        assertThat(r.trees()).extracting(TraceTree::traceId).containsExactly(0x11L, 0x21L, 0x22L);
        assertThat(print(r)).containsExactly(
                "Trace 0x11  (agent 0 00000000-0000-4000-8000-000000000001, host host-a, pid 42): 3 execution(s) in 2 piece(s) on 2 thread(s): main, pool-1",
                header(),
                String.format(ROW, "Api.handle", "main", "9.0", "-", "8.0", "", 0),
                String.format(ROW, "  Shop.reserve", "main", "1.0", "-", "1.0", "", 1),
                String.format(ROW, "    => Task.run", "pool-1", "3.0", "-", "3.0", "3.5", 2),
                String.format("%-40s %s", "    * order (items=3)", "main"),
                "",
                "Unlinked piece 0x22  (agent 0 00000000-0000-4000-8000-000000000001, host host-a, pid 42): 1 execution(s) in 1 piece(s) on 1 thread(s): pool-1",
                "   its parent 0x99 #0 is not in the log (not recorded, on a thread excluded by --thread, or lost)",
                header(),
                String.format(ROW, "Task.run", "pool-1", "1.0", "-", "1.0", "", 0));
        // statistics: the hand-off wait of the handed-off operation
        assertThat(r.statistics().all()).filteredOn(s -> s.operation().name().equals("Task.run")).singleElement()
                .satisfies(s -> {
                    assertThat(s.handoffs()).isEqualTo(1);
                    assertThat(s.handoffWait().mean()).isEqualTo(3_500.0);
                });
    }

    @Test
    void aThreadFilterThatExcludesTheParentLeavesTheChildUnlinked() {
        AnalysisOptions o = new AnalysisOptions();
        o.threadPattern = java.util.regex.Pattern.compile("pool");
        AnalysisResult r = Analyzer.run(Golden.handedOff(), o);
        assertThat(r.counters().joinedTraces).isZero();
        assertThat(r.counters().unlinkedPieces).isEqualTo(2);
        assertThat(r.joinedTrees()).allMatch(JoinedTree::unlinked);
        assertThat(List.of(print(r))).noneMatch(l -> l.startsWith("Trace "));
    }

    @Test
    void aPieceReadBeforeItsParentIsJoinedAtTheEnd() {
        // blocks of different threads in a frame have no order: the child's records come first
        io.sonde.analysis.ScriptedSource s = new io.sonde.analysis.ScriptedSource().probe(1, "Api.handle").probe(3, "Task.run")
                .thread(1, "main").thread(2, "pool-1")
                .childTrace(2, 0x21, 0x11, 0, 500).enter(2, 3, 1_000).exit(2, 3, 2_000)
                .trace(1, 0x11).enter(1, 1, 0).exit(1, 1, 3_000)
                .trace(1, 0x12).enter(1, 1, 4_000).exit(1, 1, 5_000);
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 1;
        AnalysisResult r = Analyzer.run(s, o);
        assertThat(r.counters().joinedTraces).isEqualTo(2);
        assertThat(r.counters().linkedPieces).isEqualTo(1);
        assertThat(r.counters().unlinkedPieces).isZero();
        assertThat(r.joinedTrees()).singleElement().satisfies(j -> {
            assertThat(j.pieces()).extracting(TraceTree::traceId).containsExactly(0x11L, 0x21L);
            assertThat(j.root().root().handoffs()).extracting(TraceTree::handoffWaitNanos).containsExactly(500L);
        });
    }
}
