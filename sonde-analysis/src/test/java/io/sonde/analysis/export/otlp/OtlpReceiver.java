package io.sonde.analysis.export.otlp;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real OTLP/HTTP traces receiver for tests: the JDK's HTTP server on 127.0.0.1, decoding every
 * request body as an {@link ExportTraceServiceRequest}. It can answer the first requests with an
 * error status, report spans rejected through {@code partial_success}, and hold every request
 * until {@link #release()} (a stalled receiver). Shared through this module's test jar.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** A received span with the resource it came under. */
    public record Received(Resource resource, Span span) {}

    private final HttpServer server;
    private final List<Received> spans = new ArrayList<>();
    private final List<String> contentTypes = new ArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile int failFirst;
    private volatile int failStatus = 503;
    private volatile long rejectPerRequest;
    private final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
    private volatile boolean holding;

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/traces", ex -> {
            try (ex) {
                byte[] body;
                try (InputStream in = ex.getRequestBody()) {
                    body = in.readAllBytes();
                }
                int n = requests.incrementAndGet();
                if (holding) {
                    try {
                        held.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (n <= failFirst) {
                    ex.sendResponseHeaders(failStatus, -1);
                    return;
                }
                ExportTraceServiceRequest req = ExportTraceServiceRequest.parseFrom(body);
                synchronized (this) {
                    contentTypes.add(ex.getRequestHeaders().getFirst("Content-Type"));
                    for (ResourceSpans rs : req.getResourceSpansList()) {
                        for (ScopeSpans ss : rs.getScopeSpansList()) for (Span s : ss.getSpansList()) spans.add(new Received(rs.getResource(), s));
                    }
                }
                ExportTraceServiceResponse.Builder answer = ExportTraceServiceResponse.newBuilder();
                if (rejectPerRequest > 0) {
                    answer.setPartialSuccess(ExportTracePartialSuccess.newBuilder().setRejectedSpans(rejectPerRequest).setErrorMessage("too old"));
                }
                byte[] out = answer.build().toByteArray();
                ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
                ex.sendResponseHeaders(200, out.length == 0 ? -1 : out.length);
                if (out.length > 0) {
                    try (OutputStream o = ex.getResponseBody()) {
                        o.write(out);
                    }
                }
            }
        });
        server.start();
    }

    /** Answers the first {@code n} requests with {@code status} (and drops their spans). */
    public OtlpReceiver failFirst(int n, int status) {
        failFirst = n;
        failStatus = status;
        return this;
    }

    public OtlpReceiver rejectPerRequest(long n) {
        rejectPerRequest = n;
        return this;
    }

    /** Holds every request from now on, unanswered, until {@link #release()} (a receiver that has stalled). */
    public OtlpReceiver hold() {
        holding = true;
        return this;
    }

    /** Answers the held requests and holds no more. */
    public void release() {
        holding = false;
        held.countDown();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces");
    }

    public synchronized List<Received> spans() {
        return List.copyOf(spans);
    }

    public synchronized List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    public int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
