package io.sonde.analysis.export;

import static io.sonde.analysis.Golden.US;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import io.sonde.analysis.ScriptedSource;
import io.sonde.analysis.stats.StatisticsCollector;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportTest {
    static final long S = 1_000_000_000L;
    final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dir;

    static ScriptedSource twoTraces() {
        ScriptedSource s = Golden.defs().range(0, 2 * S);
        Golden.orderTrace(s, 0);
        Golden.orderTrace(s, S);
        return s;
    }

    @Test
    void jsonReportHoldsExactStatisticsTreesAndTimeline() throws IOException {
        AnalysisResult r = Analyzer.run(twoTraces(), new AnalysisOptions());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReport.write(r, out);
        JsonNode root = json.readTree(out.toByteArray());
        assertThat(root.get("schema").asText()).isEqualTo("sonde-analysis/1");
        assertThat(root.get("partial").asBoolean()).isFalse();
        assertThat(root.get("agents").get(0).get("pid").asLong()).isEqualTo(42);
        assertThat(root.get("log").get("startEpochNanos").asLong()).isEqualTo(ScriptedSource.WALL_OFFSET);
        assertThat(root.get("counters").get("executions").asLong()).isEqualTo(8);
        JsonNode ops = root.get("operations");
        assertThat(ops).hasSize(3);
        JsonNode order = ops.get(0);
        assertThat(order.get("operation").asText()).isEqualTo("Shop.order");
        assertThat(order.get("count").asLong()).isEqualTo(2);
        assertThat(order.get("inclusiveNanos").get("p50").asLong()).isEqualTo(1500 * US);
        assertThat(order.get("inclusiveNanos").get("total").asLong()).isEqualTo(3000 * US);
        assertThat(order.get("exclusiveNanos").get("max").asLong()).isEqualTo(700 * US);
        assertThat(order.get("cpu").get("inclusiveMeanNanos").asDouble()).isEqualTo(1000.0 * US);
        assertThat(root.get("hotSpots").get(0).get("share").asDouble()).isEqualTo(1400.0 / 3000.0);
        JsonNode tl = root.get("timeline");
        assertThat(tl.get("bucketNanos").asLong()).isEqualTo(S);
        assertThat(tl.get("operations").get(0).get("calls").toString()).isEqualTo("[1,1]");
        assertThat(tl.get("operations").get(0).get("callsPerSecond").toString()).isEqualTo("[1.0,1.0]");
        JsonNode tree = root.get("trees").get(0);
        assertThat(tree.get("thread").asText()).isEqualTo("worker-1");
        assertThat(tree.get("traceId").asLong()).isEqualTo(0xA1);
        List<String> nodes = new ArrayList<>();
        for (JsonNode n : tree.get("nodes")) {
            nodes.add(n.get("depth").asInt() + ":" + n.get("operation").asText() + ":" + n.get("wallInclusiveNanos").asLong() / US + ":"
                    + n.get("cpuExclusiveNanos").asLong() / US);
        }
        assertThat(nodes).containsExactly("0:Shop.order:1500:400", "1:Shop.price:500:230", "2:Db.query:200:120", "1:Db.query:300:250");
    }

    @Test
    void csvHasOneExactLinePerOperation() throws IOException {
        AnalysisResult r = Analyzer.run(twoTraces(), new AnalysisOptions());
        StringWriter w = new StringWriter();
        CsvExport.write(r, w);
        assertThat(w.toString().split("\r\n")).containsExactly(
                CsvExport.HEADER,
                "Shop.order,2,0,1500000.000,1500000,1500000,1500000,1500000,3000000,700000.000,700000,700000,700000,700000,1400000,1000000.000,400000.000,0,,,,,,",
                "Db.query,4,0,250000.000,200000,300000,300000,300000,1000000,250000.000,200000,300000,300000,300000,1000000,185000.000,185000.000,0,,,,,,",
                "Shop.price,2,0,500000.000,500000,500000,500000,500000,1000000,300000.000,300000,300000,300000,300000,600000,350000.000,230000.000,0,,,,,,");
        assertThat(CsvExport.quote("a,b \"c\"")).isEqualTo("\"a,b \"\"c\"\"\"");
    }

    @Test
    void chromeTraceHasACompleteEventPerExecutionInMicroseconds() throws IOException {
        Path file = dir.resolve("trace.json");
        AnalysisOptions o = new AnalysisOptions();
        try (ChromeTraceWriter chrome = new ChromeTraceWriter(file, ScriptedSource.WALL_OFFSET)) {
            o.extraListeners.add(chrome);
            Analyzer.run(twoTraces(), o);
            assertThat(chrome.events()).isEqualTo(8);
        }
        JsonNode root = json.readTree(file.toFile());
        List<String> complete = new ArrayList<>();
        List<String> meta = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals("X")) {
                complete.add(e.get("name").asText() + "@" + e.get("ts").asDouble() + "+" + e.get("dur").asDouble() + " tid " + e.get("tid").asLong());
            } else {
                meta.add(e.get("name").asText() + "=" + e.get("args").get("name").asText());
            }
        }
        assertThat(meta).containsExactly("process_name=host-a pid 42 (" + ScriptedSource.AGENT.id() + ")", "thread_name=worker-1");
        assertThat(complete).hasSize(8);
        assertThat(complete.subList(0, 4)).containsExactly(
                "Db.query@150.0+200.0 tid 7", "Shop.price@100.0+500.0 tid 7", "Db.query@700.0+300.0 tid 7", "Shop.order@0.0+1500.0 tid 7");
        assertThat(complete.get(7)).isEqualTo("Shop.order@1000000.0+1500.0 tid 7");
    }

    @Test
    void jsonAndChromeShowTheJoinedViewHandOffWaitsAndEvents() throws IOException {
        Path file = dir.resolve("joined.json");
        AnalysisOptions o = new AnalysisOptions();
        AnalysisResult r;
        try (ChromeTraceWriter chrome = new ChromeTraceWriter(file, ScriptedSource.WALL_OFFSET)) {
            o.extraListeners.add(chrome);
            r = Analyzer.run(Golden.handedOff(), o);
            assertThat(chrome.arrows()).isEqualTo(1);
            assertThat(chrome.arrowsWithoutParent()).isEqualTo(1); // the unlinked piece
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReport.write(r, out);
        JsonNode root = json.readTree(out.toByteArray());
        JsonNode c = root.get("counters");
        assertThat(c.get("joinedTraces").asLong()).isEqualTo(1);
        assertThat(c.get("unlinkedPieces").asLong()).isEqualTo(1);
        assertThat(c.get("linkedPieces").asLong()).isEqualTo(1);
        JsonNode trees = root.get("trees");
        assertThat(trees).hasSize(3);
        assertThat(trees.get(0).has("handoffWaitNanos")).isFalse();
        assertThat(trees.get(1).get("parentTraceId").asLong()).isEqualTo(0x11);
        assertThat(trees.get(1).get("parentOrderIndex").asInt()).isEqualTo(1);
        assertThat(trees.get(1).get("handoffWaitNanos").asLong()).isEqualTo(3_500);
        assertThat(trees.get(1).get("rootTraceId").asLong()).isEqualTo(0x11);
        assertThat(trees.get(2).get("unlinked").asBoolean()).isTrue();
        JsonNode event = trees.get(0).get("nodes").get(1).get("events").get(0);
        assertThat(event.get("type").asText()).isEqualTo("order");
        assertThat(event.get("fields").asText()).isEqualTo("items=3");
        assertThat(event.get("epochNanos").asLong()).isEqualTo(ScriptedSource.WALL_OFFSET + 2_800);
        JsonNode joined = root.get("joinedTrees");
        assertThat(joined).hasSize(2);
        assertThat(joined.get(0).get("pieces")).hasSize(2);
        assertThat(joined.get(0).get("threads").toString()).isEqualTo("[\"main\",\"pool-1\"]");
        JsonNode task = null;
        for (JsonNode op : root.get("operations")) if (op.get("operation").asText().equals("Task.run")) task = op;
        assertThat(task.get("handoffs").asLong()).isEqualTo(1);
        assertThat(task.get("handoffWaitNanos").get("max").asLong()).isEqualTo(3_500);

        List<String> flows = new ArrayList<>();
        List<String> instants = new ArrayList<>();
        for (JsonNode e : json.readTree(file.toFile()).get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (ph.equals("s") || ph.equals("f")) flows.add(ph + " tid " + e.get("tid").asLong() + " @" + e.get("ts").asDouble());
            if (ph.equals("i")) instants.add(e.get("name").asText() + " tid " + e.get("tid").asLong() + " @" + e.get("ts").asDouble());
        }
        // the arrow leaves main at the hand-off (2.5 us) and ends at the task's start on pool-1 (6 us)
        assertThat(flows).containsExactly("s tid 1 @2.5", "f tid 2 @6.0");
        assertThat(instants).containsExactly("order tid 1 @2.8");
    }

    @Test
    void plotsArePngImagesWithTheChartSize() throws IOException {
        AnalysisResult r = Analyzer.run(twoTraces(), new AnalysisOptions());
        List<Path> files = PlotExport.write(r, dir.resolve("plots"), 5);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly(PlotExport.RESPONSE_TIME_PNG, PlotExport.HISTOGRAM_PNG);
        for (Path f : files) {
            BufferedImage img = ImageIO.read(f.toFile());
            assertThat(img.getWidth()).isEqualTo(1000);
            assertThat(img.getHeight()).isEqualTo(600);
        }
        StatisticsCollector st = r.statistics();
        var chart = PlotExport.responseTime(st, st.hotSpots(5));
        assertThat(chart.getSeries("Shop.order").getYData()).containsExactly(1.5, 1.5);
        assertThat(chart.getSeries("Shop.order").getXData()).containsExactly(0.0, 1.0);
    }
}
