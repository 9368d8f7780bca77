package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.sonde.format.testing.GoldenFiles;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract {@code sonde analyze LOGDIR --otlp http://HOST:PORT/v1/traces}: against a real
 * OTLP/HTTP receiver on 127.0.0.1 (decoding every request), and against a port nobody listens on.
 * The span-by-span checks are in sonde-analysis' OtlpExportTest.
 */
@Timeout(120)
class AnalyzeOtlpTest {
    @TempDir
    Path tmp;

    @Test
    void analyzeOtlpSendsEveryExecutionAndPrintsSentAndAccepted() throws Exception {
        Path log = GoldenFiles.copyTo("full.sonde", tmp);
        AtomicInteger received = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", ex -> {
            try (ex) {
                ExportTraceServiceRequest req = ExportTraceServiceRequest.parseFrom(ex.getRequestBody().readAllBytes());
                for (ResourceSpans rs : req.getResourceSpansList()) for (ScopeSpans ss : rs.getScopeSpansList()) received.addAndGet(ss.getSpansCount());
                ex.sendResponseHeaders(200, -1);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
            Object[] r = CliRun.run("analyze", tmp.toString(), "--no-progress", "--otlp", url);
            assertThat(r[0]).as("exit code; stderr: %s", r[2]).isEqualTo(0);
            String out = (String) r[1];
            Matcher executions = Pattern.compile("executions (\\d+);").matcher(out);
            assertThat(executions.find()).isTrue();
            long n = Long.parseLong(executions.group(1));
            assertThat(n).isPositive();
            assertThat(out).contains("OTLP: " + n + " spans sent, " + n + " accepted (0 rejected, 0 dropped; ").contains(url);
            assertThat(received.get()).isEqualTo(n);
        } finally {
            server.stop(0);
        }
        assertThat(log).exists();
    }

    @Test
    void anUnreachableReceiverIsAClearErrorAndANonZeroExit() throws Exception {
        GoldenFiles.copyTo("full.sonde", tmp);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/v1/traces";
        Object[] r = CliRun.run("analyze", tmp.toString(), "--no-progress", "--otlp", url);
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[1]).contains("accepted").contains("dropped");
        assertThat((String) r[2]).startsWith("sonde analyze: OTLP export to " + url).contains("not accepted")
                .contains("cannot reach the OTLP receiver").doesNotContain("Exception");
    }

    @Test
    void aUrlThatIsNotHttpIsAUsageError() throws Exception {
        GoldenFiles.copyTo("full.sonde", tmp);
        Object[] r = CliRun.run("analyze", tmp.toString(), "--no-progress", "--otlp", "ftp://127.0.0.1/v1/traces");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--otlp").contains("ftp://127.0.0.1/v1/traces");
    }
}
