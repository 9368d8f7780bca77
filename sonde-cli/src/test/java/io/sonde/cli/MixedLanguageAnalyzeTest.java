package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.testing.PythonApps;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One folder holding a Java API program's log and a Python program's log (sonde-python, run as a
 * real process): {@code sonde analyze} reads both agents as one timeline, with the operations,
 * trees and threads of both languages; and a Python program sending to {@code sonde receive} over TCP.
 */
@Timeout(180)
class MixedLanguageAnalyzeTest {
    @TempDir
    Path tmp;

    @Test
    void aJavaLogAndAPythonLogInOneFolderAnalyzeAsOneTimeline() throws Exception {
        Path logs = tmp.resolve("logs");
        // The Java program first: 3 orders, each with 2 prices, on the thread java-worker.
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of(
                "writer", "file", "file.dir", logs.toString(), "policy", "block-forever")))) {
            MethodProbe order = m.methodProbe("demo.JavaShop.order", "()V");
            MethodProbe price = m.methodProbe("demo.JavaShop.price", "()V");
            Thread t = new Thread(() -> {
                for (int i = 0; i < 3; i++) {
                    boolean e = order.enter();
                    for (int k = 0; k < 2; k++) {
                        boolean p = price.enter();
                        price.exit(p);
                    }
                    order.exit(e);
                }
            }, "java-worker");
            t.start();
            t.join();
        }
        // Then the Python program into the same folder.
        assertThat(PythonApps.run("shop.py", Map.of("SONDE_DIR", logs.toString()), "3")).contains("done");

        Path json = tmp.resolve("a.json");
        Object[] run = CliRun.run("analyze", logs.toString(), "--no-progress", "--trees", "20", "--json", json.toString());
        String report = (String) run[1];
        assertThat((Integer) run[0]).as(report + run[2]).isZero();
        assertThat(report).contains("2 agent(s)");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("partial").asBoolean()).isFalse();
        assertThat(root.get("agents")).hasSize(2);
        assertThat(root.get("counters").get("trailers").asLong()).isEqualTo(2);
        assertThat(root.get("counters").get("trailerProduced").asLong())
                .isEqualTo(root.get("counters").get("trailerWritten").asLong()).isEqualTo(3 * (2 + 2 * 2) + 3 * 7 + 2); // Java: 3 orders with 2 prices; Python: shop.py

        Map<String, Integer> counts = new HashMap<>();
        root.get("operations").forEach(o -> counts.put(o.get("operation").asText(), o.get("count").asInt()));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(
                "demo.JavaShop.order", 3, "demo.JavaShop.price", 6,
                "py.shop.checkout", 3, "py.shop.price", 3, "py.shop.audit", 3, "py.shop.ship", 1));
        Set<String> timeline = new HashSet<>();
        root.get("timeline").get("operations").forEach(o -> timeline.add(o.get("operation").asText()));
        assertThat(timeline).contains("demo.JavaShop.order", "py.shop.checkout");

        // one timeline: every Java execution (recorded first) starts before every Python one
        long lastJava = Long.MIN_VALUE;
        long firstPython = Long.MAX_VALUE;
        Set<String> threads = new HashSet<>();
        Set<Integer> agents = new HashSet<>();
        for (JsonNode tree : root.get("trees")) {
            threads.add(tree.get("thread").asText());
            agents.add(tree.get("agent").asInt());
            for (JsonNode n : tree.get("nodes")) {
                long start = n.get("startEpochNanos").asLong();
                if (n.get("operation").asText().startsWith("demo.")) {
                    lastJava = Math.max(lastJava, start);
                } else {
                    firstPython = Math.min(firstPython, start);
                }
            }
        }
        assertThat(threads).containsExactlyInAnyOrder("java-worker", "MainThread", "py-worker");
        assertThat(agents).containsExactlyInAnyOrder(0, 1);
        assertThat(lastJava).isLessThan(firstPython);
        // the log's span (from the frame times of both agents) reaches the Python program's frames
        assertThat(root.get("log").get("endEpochNanos").asLong()).isGreaterThan(firstPython);
    }

    @Test
    void aPythonProgramSendsItsLogToSondeReceiveOverTcp() throws Exception {
        Path out = tmp.resolve("received");
        Path log = tmp.resolve("receive.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process receiver = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SondeCommand.class.getName(),
                "receive", "--port", "0", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String first = new ReceiveCommandTest.Lines(log).readLine();
            Matcher m = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+), .*").matcher(String.valueOf(first));
            assertThat(m.matches()).as(first).isTrue();
            String output = PythonApps.run("shop.py", Map.of("SONDE_TCP", "127.0.0.1:" + m.group(1)), "2");
            assertThat(output).contains("done");

            // the receiver stores the connection under out/<agent>/; wait (bounded) for the trailer to land
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                Path agentDir = null;
                if (Files.isDirectory(out)) {
                    try (Stream<Path> dirs = Files.list(out)) {
                        agentDir = dirs.filter(Files::isDirectory).findFirst().orElse(null);
                    }
                }
                if (agentDir != null) {
                    try (SondeReader r = SondeReader.open(agentDir)) {
                        long executions = 0;
                        while (r.next()) {
                            if (r.type() == io.sonde.format.Format.ENTER) executions++;
                        }
                        if (r.end().kind() == ReadEnd.Kind.COMPLETE) {
                            assertThat(executions).isEqualTo(2 * 3 + 1);
                            assertThat(r.trailer().produced()).isEqualTo(r.trailer().written()).isEqualTo(2 * 7 + 2);
                            assertThat(r.missingFrames()).isZero();
                            break;
                        }
                    } catch (java.io.IOException stillArriving) {
                        // a frame half written: read again
                    }
                }
                assertThat(System.nanoTime()).as("the receiver stored the whole stream within 60 s; receiver output: "
                        + Files.readString(log)).isLessThan(deadline);
                Thread.sleep(50);
            }
        } finally {
            receiver.destroy();
            receiver.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
