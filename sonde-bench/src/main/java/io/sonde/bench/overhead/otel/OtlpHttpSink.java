package io.sonde.bench.overhead.otel;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP (protobuf) trace receiver on 127.0.0.1 that only counts the spans arriving at
 * {@code /v1/traces} and answers 200 with an empty {@code ExportTraceServiceResponse}.
 */
public final class OtlpHttpSink implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final String nameMarker;
    private final AtomicLong spans = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final List<String> problems = new ArrayList<>();

    /** Starts the receiver on an ephemeral loopback port, counting spans named with {@code nameMarker}. */
    public OtlpHttpSink(String nameMarker) throws IOException {
        this.nameMarker = nameMarker;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "overhead-otlp-sink");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/v1/traces", this::handle);
        server.start();
    }

    /** The URL to give the exporter as its traces endpoint. */
    public String tracesEndpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            InputStream in = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                in = new GZIPInputStream(in);
            }
            body = in.readAllBytes();
            requests.incrementAndGet();
            bytes.addAndGet(body.length);
            try {
                spans.addAndGet(OtlpSpanCounter.count(body, nameMarker));
            } catch (IOException e) {
                synchronized (problems) {
                    problems.add("request " + requests.get() + ": " + e.getMessage());
                }
            }
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1); // empty body = empty response message
        }
    }

    /** Spans counted so far. */
    public long spans() {
        return spans.get();
    }

    /** Export requests received so far. */
    public long requests() {
        return requests.get();
    }

    /** Problems decoding requests. */
    public List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
