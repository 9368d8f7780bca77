package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.collector.handler.HandlerStatus;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde collector} in its own JVM (real TCP, SIGTERM), then {@code sonde query}, {@code analyze} and {@code dump} on its folder. */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CollectorCommandTest {
    @TempDir
    Path out;

    @TempDir
    Path logs;

    @Test
    void collectsIntoSegmentFilesAndDatabaseStopsOnSigtermAndIsQueryable() throws Exception {
        Path log = logs.resolve("collector.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SondeCommand.class.getName(),
                "collector", "--port", "0", "--out", out.toString(), "--http", "0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        byte[] golden = GoldenFiles.bytes("full.sonde");
        try {
            ReceiveCommandTest.Lines stdout = new ReceiveCommandTest.Lines(log);
            String first = stdout.readLine();
            Matcher m = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+), archive (.*), handlers archive, database \\(database .*archive\\.db\\),"
                    + " metrics, dashboard-records, live-operations \\(Ctrl-C to stop\\)")
                    .matcher(first);
            assertThat(m.matches()).as(first).isTrue();
            Matcher web = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+)/").matcher(stdout.readLine());
            assertThat(web.matches()).isTrue();
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(m.group(1)))) {
                s.getOutputStream().write(golden);
            }
            assertThat(stdout.readLine()).startsWith("opened ");
            assertThat(stdout.readLine()).startsWith("closed ").contains("trailer received -> " + out.resolve(GoldenScenarios.FULL_AGENT.toString()));
            // the dashboard knows the agent and reads the archive
            HttpClient http = HttpClient.newHttpClient();
            String agents = http.send(HttpRequest.newBuilder(URI.create(web.group(1) + "/api/agents")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(agents).contains("\"id\":\"" + GoldenScenarios.FULL_AGENT + "\"", "\"frames\":4");
            // records per agent (the agents page's records/s): the golden log's data records, once the counting handler got them
            long[] counted = countRecords(golden); // the golden log has one GAP of 4 records
            long written = counted[0];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!agents.contains("\"records\":" + written + ",") && System.nanoTime() < deadline) {
                Thread.sleep(100);
                agents = http.send(HttpRequest.newBuilder(URI.create(web.group(1) + "/api/agents")).build(), HttpResponse.BodyHandlers.ofString()).body();
            }
            assertThat(counted[1]).isEqualTo(4);
            assertThat(agents).contains("\"records\":" + written + ",", "\"droppedRecords\":" + counted[1] + ",");
            String ops = http.send(HttpRequest.newBuilder(URI.create(web.group(1) + "/api/operations")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(ops).startsWith("[{\"operation\":");
            p.destroy();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            List<String> end = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                end.add(stdout.readLine());
            }
            assertThat(end.get(0)).isEqualTo("stopped: 1 connections (0 failed), 1 agents, 4 frames, " + (golden.length - 12)
                    + " bytes, every handler queue drained");
            assertThat(end.get(1)).isEqualTo("handler archive (lossless): closed, 4 frames handled, 0 dropped, 0 queued, no errors");
            assertThat(end.get(2)).isEqualTo("handler database: closed, 4 frames handled, 0 dropped, 0 queued, no errors");
            // --http adds the metrics handler behind /metrics
            assertThat(end.get(3)).isEqualTo("handler metrics: closed, 4 frames handled, 0 dropped, 0 queued, no errors");
            // and the handler counting each agent's records for the agents page
            assertThat(end.get(4)).isEqualTo("handler dashboard-records: closed, 4 frames handled, 0 dropped, 0 queued, no errors");
            // and the live operations view's aggregates
            assertThat(end.get(5)).isEqualTo("handler live-operations: closed, 4 frames handled, 0 dropped, 0 queued, no errors");
            assertThat(end.get(6)).startsWith("agent " + GoldenScenarios.FULL_AGENT + " on ").contains(": disconnected, first seen ")
                    .contains("1 connection; 1 connections, 4 frames");
        } finally {
            p.destroyForcibly();
        }
        Path segment = out.resolve(GoldenScenarios.FULL_AGENT.toString()).resolve("sonde-" + GoldenScenarios.FULL_AGENT + "-000000.sonde");
        assertThat(Files.readAllBytes(segment)).as("the archive byte for byte").isEqualTo(golden);

        Object[] q = CliRun.run("query", out.toString(), "SELECT agent_id, status FROM agents");
        assertThat(q[0]).as((String) q[2]).isEqualTo(0);
        assertThat((String) q[1]).isEqualTo("agent_id                              status\n"
                + "------------------------------------  ------------\n"
                + GoldenScenarios.FULL_AGENT + "  disconnected\n1 row\n");
        Object[] j = CliRun.run("query", out.toString(), "SELECT frames, segment FROM segments", "--json");
        assertThat((String) j[1]).isEqualTo("[\n  {\"frames\": 4, \"segment\": \"" + out.relativize(segment) + "\"}\n]\n");
        Object[] w = CliRun.run("query", out.toString(), "DELETE FROM agents");
        assertThat(w[0]).isEqualTo(1);
        assertThat((String) w[2]).isEqualTo("sonde query: refused: only reading statements are allowed (SELECT, WITH, VALUES, EXPLAIN);"
                + " 'DELETE' is refused: the archive is read-only here\n");
        Object[] topOps = CliRun.run("query", out.toString(), "--top-operations", "--agent", GoldenScenarios.FULL_AGENT.toString(), "--from", "0");
        assertThat(topOps[0]).as((String) topOps[2]).isEqualTo(0);
        assertThat((String) topOps[1]).startsWith("operation").contains("calls").contains("mean_ns");
        Object[] both = CliRun.run("query", out.toString(), "SELECT 1", "--top-operations");
        assertThat(both[0]).isEqualTo(2);

        assertThat(CliRun.run("analyze", out.toString())[0]).isEqualTo(0);
        assertThat(CliRun.run("dump", out.toString())[0]).isEqualTo(0);
    }

    @Test
    void theStartUpLineListsTheHandlersOptionsAddAsWellAsThoseNamed() throws Exception {
        Path log = logs.resolve("collector-options.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // --http adds metrics, dashboard-records and live-operations, --otlp the otlp handler, --kafka-publish the kafka handler; the URL and
        // the broker are never reached (no agent connects, and the kafka producer connects lazily)
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SondeCommand.class.getName(),
                "collector", "--port", "0", "--out", out.toString(), "--handlers", "archive", "--http", "0",
                "--otlp", "http://127.0.0.1:9/v1/traces", "--kafka-publish", "127.0.0.1:9")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            ReceiveCommandTest.Lines stdout = new ReceiveCommandTest.Lines(log);
            String line = stdout.readLine();
            while (!line.startsWith("collector listening on ")) {
                line = stdout.readLine(); // the kafka client may log first
            }
            assertThat(line).matches("collector listening on 127\\.0\\.0\\.1:\\d+, archive .*, handlers archive, kafka, metrics,"
                    + " dashboard-records, live-operations, otlp \\(Ctrl-C to stop\\)");
        } finally {
            p.destroyForcibly();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aHandlerThatFailedToOpenIsListedWithItsState() {
        CollectorCommand c = new CollectorCommand();
        c.out = out;
        c.databaseUrl = "jdbc:postgresql://db:5432/sonde?user=sonde&password=secret";
        List<HandlerStatus> status = List.of(
                new HandlerStatus("archive", true, "running", 0, 0, 0, 0, 0, null),
                new HandlerStatus("database", false, "running", 0, 0, 0, 0, 0, null),
                new HandlerStatus("otlp", false, "failed to open: bad url", 0, 0, 0, 0, 0, null));
        assertThat(c.handlerList(status)).isEqualTo("archive, database (database jdbc:postgresql://db:5432/sonde?user=sonde&password=***),"
                + " otlp (failed to open: bad url)");
        assertThat(c.handlerList(List.of())).isEqualTo("none");
    }

    /** The data records a stream's trailer says were written, and the records its GAPs say were dropped. */
    private long[] countRecords(byte[] stream) throws Exception {
        Path file = logs.resolve("golden.sonde");
        Files.write(file, stream);
        long gaps = 0;
        try (SondeReader r = SondeReader.open(file)) {
            while (r.next()) {
                if (r.type() == Format.GAP) gaps += r.gapCount();
            }
            return new long[] {r.trailer().written(), gaps};
        }
    }
}
