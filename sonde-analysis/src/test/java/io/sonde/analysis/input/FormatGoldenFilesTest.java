package io.sonde.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import io.sonde.format.testing.GoldenScenarios;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format module's golden files (built by its own test-side encoder, independent of ours),
 * analysed: trees and times follow from the scenarios in sonde-format's golden/README.md.
 */
class FormatGoldenFilesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void writeGoldenFiles() throws IOException {
        for (Map.Entry<String, byte[]> e : GoldenScenarios.all().entrySet()) {
            // the 1.0 files in dir, the 2.0 ones (the same agents again) apart in dir/../v2, the 2.4 one in dir/../v2.4
            Path p = e.getKey().startsWith("2.0/") ? dir.resolveSibling(dir.getFileName() + "-v2").resolve(e.getKey().substring(4))
                    : e.getKey().startsWith("2.4/") ? dir.resolveSibling(dir.getFileName() + "-v2.4").resolve(e.getKey().substring(4))
                    : dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
    }

    static AnalysisResult analyse(Path p) throws IOException {
        return Analyzer.run(new LogSource(List.of(p)), new AnalysisOptions());
    }

    static List<String> rows(TraceTree t) {
        List<String> out = new ArrayList<>();
        for (TreeNode n : t.nodes()) {
            out.add(n.depth() + " " + n.operation().name() + " wall " + n.wallInclusive() + "/" + n.wallExclusive() + " cpu "
                    + (n.cpuInclusive() == Execution.UNKNOWN ? "-" : n.cpuInclusive()) + (n.exception() != null ? " !" + n.exception() : ""));
        }
        return out;
    }

    @Test
    void minimal() throws IOException {
        AnalysisResult r = analyse(dir.resolve("minimal.sonde"));
        assertThat(r.problems()).isEmpty();
        assertThat(r.trees()).singleElement().satisfies(t -> {
            assertThat(t.traceId()).isEqualTo(0x1_0000_0001L);
            assertThat(t.thread().name()).isEqualTo("main");
            assertThat(rows(t)).containsExactly("0 com.example.Shop.checkout wall 250000/250000 cpu -");
            assertThat(t.root().startWallNanos()).isEqualTo(GoldenScenarios.MINIMAL_WALL + 100_000);
        });
        assertThat(r.logRange()).isEqualTo(new TimeRange(GoldenScenarios.MINIMAL_WALL, GoldenScenarios.MINIMAL_WALL + 2_000_000));
    }

    @Test
    void fullWithCpuExceptionsNestedTracesGapAndEvents() throws IOException {
        AnalysisResult r = analyse(dir.resolve("full.sonde"));
        assertThat(r.problems()).isEmpty();
        // joined: trace 0x100000001 with its child on worker-ü, then the root 0x200000002
        assertThat(r.trees()).extracting(TraceTree::traceId).containsExactly(0x1_0000_0001L, 0x2_0000_0001L, 0x2_0000_0002L);
        assertThat(r.joinedTrees()).hasSize(2);
        assertThat(r.counters().joinedTraces).isEqualTo(2);
        assertThat(r.counters().linkedPieces).isEqualTo(1);
        assertThat(r.counters().unlinkedPieces).isZero();
        assertThat(r.counters().handoffs).isZero(); // 1.0: no hand-off times
        TraceTree child = r.trees().get(1);
        assertThat(child.thread().name()).isEqualTo("worker-ü");
        assertThat(child.parentTraceId()).isEqualTo(0x1_0000_0001L);
        assertThat(child.parentOrderIndex()).isEqualTo(1);
        assertThat(child.handedOff()).isFalse();
        assertThat(rows(child)).containsExactly("0 com.example.Db.query wall 10000/10000 cpu 4000 !java.lang.IllegalStateException");
        assertThat(rows(r.trees().get(2))).containsExactly("0 com.example.Shop.checkout wall 100000/100000 cpu -");
        assertThat(r.trees().get(2).root().events()).extracting(e -> e.type() + " " + e.fields())
                .containsExactly("order paid=false items=-2147483648 cents=9223372036854775807 weight=-0.125 region=eu-west");
        assertThat(rows(r.trees().get(0))).containsExactly(
                "0 com.example.Shop.checkout wall 1290000/1270000 cpu -",
                "1 com.example.Shop.price wall 10000/10000 cpu 5000",
                "1 com.example.Db.query wall 10000/10000 cpu - !java.io.IOException");
        assertThat(r.counters().gaps).isEqualTo(1);
        assertThat(r.counters().droppedRecords).isEqualTo(4);
        assertThat(r.counters().events).isEqualTo(3);
        assertThat(r.counters().executions).isEqualTo(5);
        assertThat(r.counters().trailerProduced).isEqualTo(17);
        assertThat(r.counters().trailerWritten).isEqualTo(13);
        OperationStats checkout = r.statistics().all().stream().filter(s -> s.operation().name().equals("com.example.Shop.checkout")).findFirst().orElseThrow();
        assertThat(checkout.count()).isEqualTo(2);
        assertThat(checkout.inclusive().max()).isEqualTo(1_290_000);
        assertThat(checkout.inclusive().sum()).isEqualTo(1_390_000);
        assertThat(checkout.exceptions()).isZero();
    }

    @Test
    void fullOfVersion2HasTheHandOffWaitOfItsChild() throws IOException {
        AnalysisResult r = analyse(dir.resolveSibling(dir.getFileName() + "-v2").resolve("full.sonde"));
        assertThat(r.problems()).isEmpty();
        assertThat(r.trees()).extracting(TraceTree::traceId).containsExactly(0x1_0000_0001L, 0x2_0000_0001L, 0x2_0000_0002L);
        TraceTree child = r.trees().get(1);
        // handed over at M+25000 during Shop.price, first ENTER at M+60000
        assertThat(child.handoffWaitNanos()).isEqualTo(35_000);
        assertThat(r.joinedTrees().get(0).root().root().children().get(0).handoffs()).containsExactly(child);
        assertThat(r.counters().handoffs).isEqualTo(1);
        OperationStats query = r.statistics().all().stream().filter(s -> s.operation().name().equals("com.example.Db.query")).findFirst().orElseThrow();
        assertThat(query.handoffs()).isEqualTo(1);
        assertThat(query.handoffWait().max()).isEqualTo(35_000);
        // the event of the first trace at its place: inside Shop.checkout, after Db.query
        assertThat(r.trees().get(0).root().events()).extracting(e -> e.type()).containsExactly("order");
    }

    @Test
    void rolledSegmentsWithATraceOpenAcrossTheRoll() throws IOException {
        AnalysisResult r = analyse(dir.resolve("rolled"));
        assertThat(r.problems()).isEmpty();
        assertThat(r.inputs()).hasSize(2);
        assertThat(r.trees()).hasSize(2);
        assertThat(rows(r.trees().get(0))).containsExactly("0 com.example.Job.run wall 3400000/3400000 cpu - !java.lang.RuntimeException");
        assertThat(rows(r.trees().get(1))).containsExactly("0 com.example.Job.run wall 100000/100000 cpu -");
        assertThat(r.trees().get(0).thread().name()).isEqualTo("pool-1-thread-1");
    }

    @Test
    void compressedFramesAreAnalysedAsTheDataFramesTheyWereMadeFrom() throws IOException {
        AnalysisResult r = analyse(dir.resolveSibling(dir.getFileName() + "-v2.4").resolve("compressed.sonde"));
        assertThat(r.problems()).isEmpty();
        assertThat(r.trees()).singleElement().satisfies(t -> {
            assertThat(t.traceId()).isEqualTo(0x1_0000_0001L);
            List<String> expected = new ArrayList<>();
            expected.add("0 com.example.Loop.run wall 50000/34000 cpu -");
            for (int i = 0; i < GoldenScenarios.COMPRESSED_PAIRS; i++) {
                expected.add("1 com.example.Loop.step wall 1000/1000 cpu -");
            }
            assertThat(rows(t)).containsExactlyElementsOf(expected);
        });
        assertThat(r.counters().executions).isEqualTo(1 + GoldenScenarios.COMPRESSED_PAIRS);
    }

    @Test
    void allGoldenFilesTogetherAreThreeAgents() throws IOException {
        AnalysisResult r = analyse(dir);
        assertThat(r.problems()).isEmpty();
        assertThat(r.agents()).extracting(AgentInfo::id).containsExactlyInAnyOrder(
                GoldenScenarios.MINIMAL_AGENT, GoldenScenarios.FULL_AGENT, GoldenScenarios.ROLLED_AGENT);
        assertThat(r.counters().executions).isEqualTo(1 + 5 + 2);
    }
}
