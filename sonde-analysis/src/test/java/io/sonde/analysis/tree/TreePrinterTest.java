package io.sonde.analysis.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TreePrinterTest {
    @Test
    void printsTheGoldenTreeLikeTheTraceBrowser() {
        AnalysisResult r = Analyzer.run(Golden.orderTrace(Golden.defs(), 0), new AnalysisOptions());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        new TreePrinter(new PrintStream(buf, true, StandardCharsets.UTF_8)).print(r.trees());
        String pad = " ".repeat(40 - "Operation".length());
        assertThat(buf.toString(StandardCharsets.UTF_8).split("\\R")).containsExactly(
                "Thread worker-1  (agent 0 00000000-0000-4000-8000-000000000001, host host-a, pid 42)",
                "Operation" + pad + "      Wall us       CPU us      Excl us Depth",
                "-- trace 0xa1",
                String.format("%-40s %12s %12s %12s %5d", "Shop.order", "1500.0", "1000.0", "700.0", 0),
                String.format("%-40s %12s %12s %12s %5d", "  Shop.price", "500.0", "350.0", "300.0", 1),
                String.format("%-40s %12s %12s %12s %5d", "    Db.query", "200.0", "120.0", "200.0", 2),
                String.format("%-40s %12s %12s %12s %5d", "  Db.query", "300.0", "250.0", "300.0", 1));
    }
}
