package io.sonde.bench.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.input.LogSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark at a CI-friendly size: it runs end to end and reports consistent counts (no speed asserted). */
class AnalysisBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void generatedLogIsReadableAndBalanced() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("log"));
        AnalysisBenchmark.generate(logs, 50_000);
        AnalysisResult r = Analyzer.run(new LogSource(List.of(logs)), new AnalysisOptions());
        assertThat(r.problems()).isEmpty();
        assertThat(r.counters().enters + r.counters().exits).isEqualTo(50_000);
        assertThat(r.counters().executions).isEqualTo(25_000);
        assertThat(r.counters().openAtEnd).isZero();
        assertThat(r.counters().trailerWritten).isEqualTo(50_000);
    }

    @Test
    void mainRunsTheChildJvmAndWritesJson() throws Exception {
        Path json = dir.resolve("bench.json");
        AnalysisBenchmark.main(new String[] {"--records", "200000", "--heap", "64m", "--json", json.toString(), "--dir", dir.resolve("b").toString()});
        JsonNode n = new ObjectMapper().readTree(json.toFile());
        assertThat(n.get("dataRecords").asLong()).isEqualTo(200_000);
        assertThat(n.get("executions").asLong()).isEqualTo(100_000);
        assertThat(n.get("recordsAnalysed").asLong()).isGreaterThan(200_000); // plus the TRACE_STARTs
        assertThat(n.get("peakRssBytes").asLong()).isPositive();
        assertThat(n.get("recordsPerSecond").asDouble()).isPositive();
        assertThat(n.get("readerOnlyRecordsPerSecond").asDouble()).isPositive();
    }
}
