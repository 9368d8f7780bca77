package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.testing.GoldenFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde analyze} on a log written by the real Sonde pipeline, on golden files and on bad input. */
class AnalyzeCommandTest {
    @TempDir
    Path tmp;

    final ObjectMapper json = new ObjectMapper();

    static Object[] run(String... args) {
        return CliRun.run(args);
    }

    /** The monitored program: order() calls price() twice and query(), which sleeps 2 ms. */
    static final class Shop {
        final MethodProbe order;
        final MethodProbe price;
        final MethodProbe query;
        long sink;

        Shop(Monitor m) {
            order = m.methodProbe("demo.Shop.order", "()V");
            price = m.methodProbe("demo.Shop.price", "(I)J");
            query = m.methodProbe("demo.Db.query", "()V");
        }

        void order() throws InterruptedException {
            boolean e = order.enter();
            try {
                price(1);
                price(2);
                query();
            } finally {
                order.exit(e);
            }
        }

        void price(int i) {
            boolean e = price.enter();
            for (int k = 0; k < 1000 * i; k++) sink += k;
            price.exit(e);
        }

        void query() throws InterruptedException {
            boolean e = query.enter();
            try {
                Thread.sleep(2);
            } finally {
                query.exit(e);
            }
        }
    }

    /** Runs 3 orders on a thread named shop-worker under a file-writing monitor with CPU times. */
    Path recordRealRun() throws Exception {
        Path logs = tmp.resolve("logs");
        // Explicit settings only (the test JVM has a sonde.agent.jar property the monitor would reject).
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "file", "file.dir", logs.toString(), "cpu.time", "on")))) {
            Shop shop = new Shop(m);
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < 3; i++) shop.order();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "shop-worker");
            t.start();
            t.join();
        }
        return logs;
    }

    @Test
    void treesOfARealRunMatchTheProgram() throws Exception {
        Path logs = recordRealRun();
        Path out = tmp.resolve("a.json");
        Object[] r = run("analyze", logs.toString(), "--no-progress", "--trees", "10", "--json", out.toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        assertThat((String) r[1]).contains("Trace 0x100000001", "on 1 thread(s): shop-worker", "demo.Shop.order", "Hot spots");
        JsonNode root = json.readTree(out.toFile());
        assertThat(root.get("partial").asBoolean()).isFalse();
        List<JsonNode> trees = new ArrayList<>();
        root.get("trees").forEach(trees::add);
        assertThat(trees).hasSize(3);
        for (JsonNode t : trees) {
            assertThat(t.get("thread").asText()).isEqualTo("shop-worker");
            List<String> shape = new ArrayList<>();
            for (JsonNode n : t.get("nodes")) shape.add(n.get("depth").asInt() + " " + n.get("operation").asText());
            assertThat(shape).containsExactly("0 demo.Shop.order", "1 demo.Shop.price", "1 demo.Shop.price", "1 demo.Db.query");
            JsonNode query = t.get("nodes").get(3);
            assertThat(query.get("wallInclusiveNanos").asLong()).isGreaterThanOrEqualTo(2_000_000L); // it slept 2 ms
            assertThat(query.get("cpuInclusiveNanos").isNull()).isFalse();
            long childSum = 0;
            for (int i = 1; i < 4; i++) childSum += t.get("nodes").get(i).get("wallInclusiveNanos").asLong();
            JsonNode order = t.get("nodes").get(0);
            assertThat(order.get("wallInclusiveNanos").asLong() - childSum).isEqualTo(order.get("wallExclusiveNanos").asLong());
        }
        JsonNode ops = root.get("operations");
        Map<String, Long> counts = new java.util.HashMap<>();
        for (JsonNode op : ops) counts.put(op.get("operation").asText(), op.get("count").asLong());
        assertThat(counts).isEqualTo(Map.of("demo.Shop.order", 3L, "demo.Shop.price", 6L, "demo.Db.query", 3L));
    }

    @Test
    void demandsGoToStdoutAsJsonWithTheReportOnStderr() throws Exception {
        Path logs = recordRealRun();
        Object[] r = run("analyze", "--demands", logs.toString(), "--no-progress", "--group", "shop=^shop-");
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        JsonNode d = json.readTree((String) r[1]);
        assertThat(d.get("schema").asText()).isEqualTo("sonde-demands/1");
        JsonNode g = d.get("groups").get(0);
        assertThat(g.get("name").asText()).isEqualTo("shop");
        assertThat(g.get("threads").asInt()).isEqualTo(1);
        assertThat((String) r[2]).contains("Records:");
        Path file = tmp.resolve("d.json");
        Object[] f = run("analyze", logs.toString(), "--no-progress", "--demands-json", file.toString());
        assertThat(f[0]).isEqualTo(0);
        assertThat(json.readTree(file.toFile()).get("groups").get(0).get("name").asText()).isEqualTo("all");
        Object[] both = run("analyze", logs.toString(), "--demands", "--demands-json", file.toString());
        assertThat(both[0]).as("a usage error").isEqualTo(2);
        assertThat((String) both[2]).contains("--demands, --demands-json=FILE are mutually exclusive");
    }

    @Test
    void aCorruptLogGivesFileAndOffsetAndPartialResults() throws Exception {
        Path f = GoldenFiles.copyTo("full.sonde", tmp);
        byte[] b = Files.readAllBytes(f);
        b[b.length - 40] ^= 0x7f; // inside the trailer frame
        Files.write(f, b);
        Path out = tmp.resolve("p.json");
        Object[] r = run("analyze", f.toString(), "--no-progress", "--json", out.toString());
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).contains(f.toString() + ": offset ").contains("PARTIAL");
        assertThat((String) r[1]).contains("PARTIAL RESULTS");
        JsonNode root = json.readTree(out.toFile());
        assertThat(root.get("partial").asBoolean()).isTrue();
        assertThat(root.get("problems").get(0).get("source").asText()).isEqualTo(f.toString());
        assertThat(root.get("counters").get("executions").asLong()).isEqualTo(5);
    }

    @Test
    void badOptionsAreOneLineErrors() {
        Path missing = tmp.resolve("missing");
        Object[] r = run("analyze", missing.toString());
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).startsWith("sonde analyze: ").contains(missing.toString()).doesNotContain("Exception");
        Object[] g = run("analyze", tmp.toString(), "--group", "nogroup");
        assertThat((String) g[2]).contains("--group must be NAME=REGEX");
        Object[] re = run("analyze", tmp.toString(), "--thread", "(");
        assertThat((String) re[2]).contains("--thread: not a valid regular expression");
        Object[] pc = run("analyze", tmp.toString(), "--probe-cost", "x");
        assertThat((String) pc[2]).contains("--probe-cost must be");
    }

    @Test
    void calibrationMeasuresAProbeCostAndTheCorrectionIsRecorded() throws Exception {
        Path f = GoldenFiles.copyTo("minimal.sonde", tmp);
        Path out = tmp.resolve("c.json");
        Object[] r = run("analyze", f.toString(), "--no-progress", "--calibrate", "--json", out.toString());
        assertThat(r[0]).as("stderr: %s", r[2]).isEqualTo(0);
        assertThat((String) r[1]).contains("Calibration: ");
        JsonNode pc = json.readTree(out.toFile()).get("perturbationCorrection");
        assertThat(pc.get("wallNanosPerProbe").asLong()).isGreaterThan(0);
        Object[] fixed = run("analyze", f.toString(), "--no-progress", "--probe-cost", "1000,500", "--json", out.toString());
        assertThat(fixed[0]).isEqualTo(0);
        JsonNode pc2 = json.readTree(out.toFile()).get("perturbationCorrection");
        assertThat(pc2.get("applied").asBoolean()).isTrue();
        assertThat(pc2.get("wallNanosPerProbe").asLong()).isEqualTo(1000);
        assertThat(pc2.get("cpuNanosPerProbe").asLong()).isEqualTo(500);
    }
}
