package io.sonde.analysis.input;

import static io.sonde.analysis.Golden.US;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.GoldenFiles;
import io.sonde.format.write.LogFileWriter;
import io.sonde.analysis.stats.OperationStats;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogSourceTest {
    static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    static AnalysisResult analyse(List<Path> paths) throws IOException {
        return Analyzer.run(new LogSource(paths), new AnalysisOptions());
    }

    static long count(AnalysisResult r, String op) {
        for (OperationStats s : r.statistics().all()) if (s.operation().name().equals(op)) return s.count();
        return 0;
    }

    /** Offsets of the frames of a file, by hopping over frame lengths. */
    static List<Long> frameOffsets(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> out = new ArrayList<>();
        int pos = 12;
        while (pos < b.limit()) {
            out.add((long) pos);
            pos += b.getInt(pos + 4);
        }
        return out;
    }

    @Test
    void aGoldenFileGivesTheExactTreeTimesAndFrameTimeRange() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(w, 0xA1, GoldenFiles.MONO + S);
        w.close();
        AnalysisResult r = analyse(List.of(w.segmentFile(0)));
        assertThat(r.partial()).isFalse();
        assertThat(r.problems()).isEmpty();
        assertThat(r.agents()).hasSize(1);
        assertThat(r.agents().get(0).id()).isEqualTo(GoldenFiles.AGENT_A);
        assertThat(r.agents().get(0).pid()).isEqualTo(4242);
        TraceTree t = r.trees().get(0);
        List<String> rows = new ArrayList<>();
        for (TreeNode n : t.nodes()) {
            rows.add(n.depth() + " " + n.operation().name() + " " + n.wallInclusive() / US + "/" + n.wallExclusive() / US + " cpu "
                    + n.cpuInclusive() / US + "/" + n.cpuExclusive() / US);
        }
        assertThat(rows).containsExactly("0 Shop.order 1500/700 cpu 1000/400", "1 Shop.price 500/300 cpu 350/230",
                "2 Db.query 200/200 cpu 120/120", "1 Db.query 300/300 cpu 250/250");
        assertThat(t.root().startWallNanos()).isEqualTo(GoldenFiles.WALL + S);
        // Frames: registry at the anchor, data + trailer stamped with the last record time.
        assertThat(r.logRange()).isEqualTo(new TimeRange(GoldenFiles.WALL, GoldenFiles.WALL + S + 1500 * US));
        assertThat(r.counters().trailers).isEqualTo(1);
        assertThat(r.counters().trailerWritten).isEqualTo(8);
    }

    @Test
    void aFolderOfSegmentsAndSeveralAgentsAreReadAsOne() throws IOException {
        LogFileWriter a = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(a, 1, GoldenFiles.MONO + S);
        a.rollSegment();
        GoldenFiles.orderTrace(a, 2, GoldenFiles.MONO + 2 * S);
        a.rollSegment();
        GoldenFiles.orderTrace(a, 3, GoldenFiles.MONO + 3 * S);
        a.close();
        Path other = Files.createDirectory(dir.resolve("b"));
        LogFileWriter b = GoldenFiles.open(other, GoldenFiles.AGENT_B);
        GoldenFiles.orderTrace(b, 4, GoldenFiles.MONO + S);
        b.close();
        AnalysisResult r = analyse(List.of(dir));
        assertThat(r.problems()).isEmpty();
        assertThat(r.inputs()).hasSize(4);
        assertThat(r.agents()).extracting(AgentInfo::id).containsExactlyInAnyOrder(GoldenFiles.AGENT_A, GoldenFiles.AGENT_B);
        assertThat(count(r, "Shop.order")).isEqualTo(4);
        assertThat(count(r, "Db.query")).isEqualTo(8);
        assertThat(r.counters().traces).isEqualTo(4);
    }

    @Test
    void twoRunsWithTheSameAgentIdInOneFolderAreTwoAgentRunsBothRead() throws IOException {
        // run 1: segments 0 and 1 with a trailer; run 2 (same agent id, sequence from 0 again):
        // segment 2, as the file writer numbers it after the earlier run's segments
        LogFileWriter first = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(first, 1, GoldenFiles.MONO + S);
        first.rollSegment();
        GoldenFiles.orderTrace(first, 2, GoldenFiles.MONO + 2 * S);
        first.close();
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        LogFileWriter second = GoldenFiles.open(elsewhere, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(second, 1, GoldenFiles.MONO + S); // the same trace id again
        second.close();
        Files.move(second.segmentFile(0), first.segmentFile(2));
        Files.delete(elsewhere);

        AnalysisResult r = analyse(List.of(dir));
        assertThat(r.problems()).isEmpty();
        assertThat(r.agents()).extracting(AgentInfo::id).containsExactly(GoldenFiles.AGENT_A, GoldenFiles.AGENT_A);
        assertThat(count(r, "Shop.order")).isEqualTo(3);
        assertThat(r.counters().traces).isEqualTo(3);
        assertThat(r.counters().trailers).isEqualTo(2);
    }

    @Test
    void aCorruptFrameGivesAnErrorWithFileAndOffsetAndPartialResults() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(w, 1, GoldenFiles.MONO + S);
        w.flushFrame();
        GoldenFiles.orderTrace(w, 2, GoldenFiles.MONO + 2 * S);
        w.close();
        Path f = w.segmentFile(0);
        List<Long> frames = frameOffsets(f);
        assertThat(frames).hasSize(4); // registry, trace 1, trace 2, trailer
        byte[] bytes = Files.readAllBytes(f);
        bytes[(int) (frames.get(2) + 100)] ^= 0x55; // inside the payload of the third frame
        Files.write(f, bytes);
        AnalysisResult r = analyse(List.of(f));
        assertThat(r.partial()).isTrue();
        // the damaged frame (skipped), the gap it leaves in the sequence, the trailer's count
        assertThat(r.problems()).hasSize(3);
        InputProblem p = r.problems().get(0);
        assertThat(p.source()).isEqualTo(f.toString());
        assertThat(p.offset()).isEqualTo(frames.get(2));
        assertThat(p.message()).containsIgnoringCase("crc").contains("skipped bytes " + frames.get(2) + ".." + frames.get(3));
        assertThat(r.problems().get(1).message()).contains("1 frame missing");
        assertThat(r.problems().get(2).message()).isEqualTo("trailer says 16 records written, 8 read: 8 missing or unreadable");
        assertThat(count(r, "Shop.order")).isEqualTo(1);
    }

    @Test
    void aTruncatedFileGivesAnErrorAtTheCutFrameAndTheReadablePartIsAnalysed() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(w, 1, GoldenFiles.MONO + S);
        w.flushFrame();
        GoldenFiles.orderTrace(w, 2, GoldenFiles.MONO + 2 * S);
        w.close();
        Path f = w.segmentFile(0);
        List<Long> frames = frameOffsets(f);
        byte[] bytes = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(bytes, (int) (frames.get(2) + 30)));
        AnalysisResult r = analyse(List.of(f));
        assertThat(r.partial()).isTrue();
        InputProblem p = r.problems().get(0);
        assertThat(p.source()).isEqualTo(f.toString());
        // The reader names the offset where the input ran out, inside the cut frame.
        assertThat(p.offset()).isBetween(frames.get(2), frames.get(2) + 30);
        assertThat(p.toString()).startsWith(f + ": offset " + p.offset() + ": ").contains("ended inside the frame at offset " + frames.get(2));
        assertThat(count(r, "Shop.order")).isEqualTo(1);
    }

    @Test
    void aLogWithoutTrailerIsReadWholeWithANotice() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(w, 1, GoldenFiles.MONO + S);
        w.close(false);
        AnalysisResult r = analyse(List.of(w.segmentFile(0)));
        assertThat(r.partial()).isFalse();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.error()).isFalse();
            assertThat(p.message()).contains("without a trailer");
        });
        assertThat(count(r, "Shop.order")).isEqualTo(1);
    }

    @Test
    void aFileNamedTwiceIsReadOnce() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        GoldenFiles.orderTrace(w, 1, GoldenFiles.MONO + S);
        w.close();
        AnalysisResult r = analyse(List.of(dir, w.segmentFile(0), dir.resolve(".").resolve(w.segmentFile(0).getFileName())));
        assertThat(r.inputs()).hasSize(1);
        assertThat(count(r, "Shop.order")).isEqualTo(1);
    }

    @Test
    void anEmptyFolderIsAClearError() {
        assertThatThrownBy(() -> new LogSource(List.of(dir))).hasMessageContaining(dir.toString()).hasMessageContaining("no .sonde file");
    }

    @Test
    void aMissingPathIsAClearError() {
        assertThatThrownBy(() -> new LogSource(List.of(dir.resolve("nope.sonde"))))
                .hasMessageContaining("nope.sonde")
                .hasMessageContaining("no such file");
    }

    @Test
    void notASondeFileIsAnErrorAtOffsetZero() throws IOException {
        Path f = dir.resolve("junk.sonde");
        Files.writeString(f, "this is not a sonde log at all");
        AnalysisResult r = analyse(List.of(f));
        assertThat(r.partial()).isTrue();
        assertThat(r.problems().get(0).offset()).isEqualTo(0);
        assertThat(r.problems().get(0).source()).isEqualTo(f.toString());
    }
}
