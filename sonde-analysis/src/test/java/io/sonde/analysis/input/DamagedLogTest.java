package io.sonde.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import io.sonde.format.write.LogFileWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log with a damaged frame in the middle: the analysis reads on after it, reports the problem
 * with its offset (partial), and closes the trees open at the hole as broken instead of joining
 * the records after the hole to them (issue 17).
 */
class DamagedLogTest {
    private static final long T = 1;

    @TempDir
    Path dir;

    @Test
    void treesSpanningADamagedFrameAreBrokenAndTheRestIsAnalysed() throws Exception {
        LogFileWriter w = new LogFileWriter(dir, new UUID(3, 4), 1, "h", 1_000_000_000_000L, 1000);
        w.probe(1, "Shop.order", "()V").probe(2, "Db.query", "()V").thread(T, "worker");
        w.traceStart(T, 1, 0, -1).enter(T, 1, 2000).enter(T, 2, 2100).exit(T, 2, 2200).exit(T, 1, 2300); // whole trace 1
        w.traceStart(T, 2, 0, -1).enter(T, 1, 3000).enter(T, 2, 3100).exit(T, 2, 3200).flushFrame();  // trace 2 opens...
        w.enter(T, 2, 3300).exit(T, 2, 3400).flushFrame();                                            // ...this frame is damaged...
        w.exit(T, 1, 3500);                                                                           // ...its end after the hole
        w.traceStart(T, 3, 0, -1).enter(T, 1, 4000).exit(T, 1, 4100);                                  // whole trace 3
        w.close();
        Path log = w.segmentFile(0);
        TimeRange whole = FrameTimeScan.scan(log);
        byte[] b = Files.readAllBytes(log);
        long damaged = frameOffset(b, 1); // after the frame with the definitions, trace 1 and the start of trace 2
        b[(int) damaged + 70] ^= 0x10;
        Files.write(log, b);

        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 10;
        AnalysisResult r = Analyzer.run(new LogSource(List.of(log)), o);

        assertThat(r.partial()).isTrue();
        assertThat(r.logRange()).as("the frames after the damage count for the log's span").isEqualTo(whole);
        assertThat(r.problems()).extracting(InputProblem::offset).contains(damaged);
        assertThat(r.problems().get(0).message()).contains("CRC mismatch", "skipped bytes " + damaged + "..");
        assertThat(r.counters().brokenTraces).isEqualTo(1);
        assertThat(r.counters().brokenExecutions).isEqualTo(1);
        assertThat(r.counters().skippedUnsynchronised).isEqualTo(1); // the exit of trace 2's root, after the hole
        // trace 2's tail (the exits after the hole) is not joined to anything; trace 3 is whole
        assertThat(r.counters().executions).isEqualTo(2 + 1 + 1); // trace 1, Db.query of trace 2 before the hole, trace 3
        List<TraceTree> trees = r.trees();
        assertThat(trees).extracting(TraceTree::traceId).containsExactly(1L, 2L, 3L);
        assertThat(trees).extracting(TraceTree::broken).containsExactly(false, true, false);
        TraceTree broken = trees.get(1);
        assertThat(broken.root().wallInclusive()).isEqualTo(Execution.UNKNOWN);
        assertThat(broken.nodes()).hasSize(2);
        assertThat(broken.nodes().get(1).wallInclusive()).isEqualTo(100); // Db.query completed before the hole
    }

    /**
     * A frame re-sent under a new number after a reconnect leaves a gap in the sequence without
     * losing records: with the trailer's count matching the records read, the gap is a notice and
     * the result is not partial; with records really missing, it is an error.
     */
    @Test
    void aSequenceGapIsANoticeWhenTheTrailerCountMatchesAndAnErrorOtherwise() throws Exception {
        for (boolean lost : new boolean[] {false, true}) {
            StreamBytes s = new StreamBytes(new UUID(5, 5), "h", 1);
            s.data(0, 1000, 1000, 0L, new RecordBytes().probeDef(1, "Shop.order", "()V").threadDef(T, "worker"));
            s.data(1, 2000, 2000, T, new RecordBytes().traceStart(1, 0, -1).enter(1, 2000).exit(1, 2100));
            // sequence 2 was used for a frame whose write failed; it was re-sent as 3 (or really lost)
            s.data(3, 3000, 3000, T, new RecordBytes().traceStart(2, 0, -1).enter(1, 3000).exit(1, 3100));
            Path log = dir.resolve("resent-" + lost + ".sonde");
            Files.write(log, s.trailer(4, 4000, 4000, lost ? 6 : 4, lost ? 6 : 4).toBytes());
            AnalysisResult r = Analyzer.run(new LogSource(List.of(log)), new AnalysisOptions());
            assertThat(r.partial()).isEqualTo(lost);
            InputProblem gap = r.problems().get(0);
            assertThat(gap.message()).startsWith("1 frame missing (sequence jumps from 1 to 3; possibly a frame re-sent under a new number)");
            assertThat(gap.error()).isEqualTo(lost);
            assertThat(r.counters().executions).isEqualTo(2);
        }
    }

    /** Offset of the n-th frame (0-based) of a stream. */
    private static long frameOffset(byte[] b, int n) {
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int p = 12;
        for (int i = 0; i < n; i++) p += bb.getInt(p + 4);
        return p;
    }
}
