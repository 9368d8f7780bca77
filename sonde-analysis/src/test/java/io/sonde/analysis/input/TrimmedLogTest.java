package io.sonde.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.GoldenFiles;
import io.sonde.format.write.LogFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log whose oldest segments a bounded recording deleted: a notice, never an error or a silent gap. */
class TrimmedLogTest {
    static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    private LogFileWriter threeSegments() throws IOException {
        LogFileWriter w = GoldenFiles.open(dir, GoldenFiles.AGENT_A);
        for (int i = 0; i < 3; i++) {
            GoldenFiles.orderTrace(w, i + 1, GoldenFiles.MONO + (i + 1) * S);
            if (i < 2) w.rollSegment();
        }
        w.close();
        return w;
    }

    @Test
    void aLogWhoseFirstSegmentsWereDeletedIsReadWithANoticeSayingHowManyWent() throws IOException {
        LogFileWriter w = threeSegments();
        Files.delete(w.segmentFile(0));
        Files.delete(w.segmentFile(1));

        AnalysisResult r = Analyzer.run(new LogSource(List.of(dir)), new AnalysisOptions());
        assertThat(r.partial()).isFalse();
        // two notices, no error: the deletion, and the trailer's count (of the whole run) above the
        // records read, explained by it
        assertThat(r.problems()).hasSize(2).noneMatch(InputProblem::error);
        assertThat(r.problems()).anySatisfy(t -> assertThat(t.message()).contains("trailer says 24 records written, 8 read")
                .contains("deleted earlier segments"));
        InputProblem p = r.problems().stream().filter(q -> q.message().contains("earlier segment(s)")).findFirst().orElseThrow();
        assertThat(p.source()).isEqualTo(w.segmentFile(2).toString());
        assertThat(p.message()).startsWith("2 earlier segment(s) of this agent deleted")
                .contains("file.maxsize or file.maxage").contains("starts at segment 000002");
        assertThat(r.counters().traces).isEqualTo(1);
    }

    @Test
    void aCompleteLogHasNoSuchNotice() throws IOException {
        threeSegments();
        AnalysisResult r = Analyzer.run(new LogSource(List.of(dir)), new AnalysisOptions());
        assertThat(r.problems()).isEmpty();
        assertThat(r.counters().traces).isEqualTo(3);
    }
}
