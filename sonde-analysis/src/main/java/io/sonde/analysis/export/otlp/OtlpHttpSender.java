package io.sonde.analysis.export.otlp;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@link ExportTraceServiceRequest}s over OTLP/HTTP with protobuf bodies, from one sender
 * thread fed through a bounded queue. Retries answers 429, 502, 503 and 504 and connection errors
 * with exponential backoff (honouring a {@code Retry-After} in seconds); any other non-2xx answer
 * rejects the batch. Every span handed to {@link #submit} ends in exactly one of three counts:
 * accepted, rejected (by the receiver: a non-retryable answer or {@code partial_success}) or
 * dropped (queue full past the enqueue wait, retries used up, or after the receiver was found
 * unreachable, from which point the rest is dropped at once rather than waited for — for good, or
 * for {@link Settings#unreachablePause()} when the sender runs for a long time, as in the
 * collector). Drops are counted by reason ({@link Outcome}).
 *
 * <p>{@link #submit} is called from one thread; {@link #outcome()} may be called from any.
 */
public final class OtlpHttpSender implements AutoCloseable {
    /**
     * How the sender behaves.
     *
     * @param endpoint the OTLP/HTTP traces URL, e.g. {@code http://127.0.0.1:4318/v1/traces}
     * @param queueCapacity batches that may wait for the sender thread
     * @param maxAttempts attempts per batch, the first included (at least 1)
     * @param initialBackoff wait before the first retry; doubled per retry up to {@code maxBackoff}
     * @param maxBackoff longest wait between attempts (also caps a receiver's Retry-After)
     * @param requestTimeout connect and answer timeout per attempt
     * @param enqueueWait how long {@link #submit} waits for room in a full queue before dropping
     *     (zero: never waits, for a caller that must not stall)
     * @param unreachablePause once the receiver was found unreachable, how long batches are dropped
     *     at once before it is tried again; null: for good (a one-off export)
     */
    public record Settings(URI endpoint, int queueCapacity, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
            Duration requestTimeout, Duration enqueueWait, Duration unreachablePause) {
        public Settings {
            String scheme = endpoint.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || endpoint.getHost() == null) {
                throw new IllegalArgumentException("OTLP endpoint " + endpoint + ": not an http(s)://HOST[:PORT]/PATH URL");
            }
            if (queueCapacity < 1) throw new IllegalArgumentException("OTLP queue capacity must be at least 1: " + queueCapacity);
            if (maxAttempts < 1) throw new IllegalArgumentException("OTLP attempts must be at least 1: " + maxAttempts);
            if (enqueueWait.isNegative()) throw new IllegalArgumentException("OTLP enqueue wait must not be negative: " + enqueueWait);
        }

        /** Defaults: 16 queued batches, 5 attempts, backoff 100 ms doubling to 5 s, 10 s per attempt, 60 s enqueue wait. */
        public static Settings of(URI endpoint) {
            return new Settings(endpoint, 16, 5, Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(10),
                    Duration.ofSeconds(60), null);
        }

        /**
         * For a sender that runs as long as a collector: never waits for room (a full queue drops
         * the batch at once) and tries an unreachable receiver again after 10 s.
         */
        public static Settings live(URI endpoint, int queueCapacity) {
            return new Settings(endpoint, queueCapacity, 5, Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofSeconds(10),
                    Duration.ZERO, Duration.ofSeconds(10));
        }
    }

    /**
     * What became of the spans handed over.
     *
     * @param submitted spans handed to {@link #submit}
     * @param sent spans in requests the receiver answered with 2xx
     * @param accepted spans the receiver took (sent less those it reported rejected)
     * @param rejected spans the receiver refused (partial success, or a non-retryable answer)
     * @param dropped spans never delivered: the sum of the three reasons that follow
     * @param requests HTTP requests made, retries included
     * @param retries of those, the repeated ones
     * @param problem the last problem in words (null: none)
     * @param droppedQueueFull of the dropped, those that found the queue full
     * @param droppedGaveUp those whose batch was tried {@code maxAttempts} times without an answer taken
     * @param droppedUnreachable those dropped untried because the receiver was found unreachable
     */
    public record Outcome(long submitted, long sent, long accepted, long rejected, long dropped, long requests, long retries,
            String problem, long droppedQueueFull, long droppedGaveUp, long droppedUnreachable) {
        /** True when every submitted span was accepted. */
        public boolean complete() {
            return accepted == submitted;
        }
    }

    private record Batch(ExportTraceServiceRequest request, int spans) {}

    private static final Batch END = new Batch(null, 0);

    private final Settings settings;
    private final HttpClient client;
    private final BlockingQueue<Batch> queue;
    private final Thread thread;
    // written by the sender thread, read after join (or as a snapshot): volatile for the snapshot
    private volatile long sent, accepted, rejected, droppedGaveUp, droppedUnreachableQueued, requests, retries;
    private volatile String problem;
    /** System.nanoTime() until which the receiver counts as unreachable; Long.MAX_VALUE: for good; 0: reachable. */
    private volatile long unreachableUntil;
    // written by the submitting thread only; volatile for snapshots taken by other threads
    private volatile long submitted;
    private volatile long droppedQueueFull, droppedUnreachableAtSubmit;
    private boolean closed;

    public OtlpHttpSender(Settings settings) {
        this.settings = settings;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.requestTimeout())
                .build();
        this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
        this.thread = new Thread(this::run, "sonde-otlp-sender");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues a request of {@code spans} spans; waits up to the enqueue wait for room, then drops
     * it (counted). Once the receiver was found unreachable, drops at once.
     */
    public void submit(ExportTraceServiceRequest request, int spans) {
        if (closed) throw new IllegalStateException("OTLP sender already closed");
        submitted += spans;
        if (unreachable()) {
            droppedUnreachableAtSubmit += spans;
            return;
        }
        try {
            if (!queue.offer(new Batch(request, spans), settings.enqueueWait().toNanos(), TimeUnit.NANOSECONDS)) {
                droppedQueueFull += spans;
                problem = "queue full for " + settings.enqueueWait().toMillis() + " ms: the receiver is too slow";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            droppedQueueFull += spans;
        }
    }

    /** Sends what is queued, stops the sender thread and tells what became of every span. */
    public Outcome finish() {
        if (!closed) {
            closed = true;
            try {
                queue.put(END);
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                thread.interrupt();
            }
        }
        return outcome();
    }

    /** The counts so far (final after {@link #finish}). */
    public Outcome outcome() {
        long queueFull = droppedQueueFull;
        long gaveUp = droppedGaveUp;
        long unreachableDrops = droppedUnreachableQueued + droppedUnreachableAtSubmit;
        return new Outcome(submitted, sent, accepted, rejected, queueFull + gaveUp + unreachableDrops, requests, retries, problem, queueFull,
                gaveUp, unreachableDrops);
    }

    private boolean unreachable() {
        long until = unreachableUntil;
        return until != 0 && (until == Long.MAX_VALUE || System.nanoTime() - until < 0);
    }

    @Override
    public void close() {
        finish();
    }

    private void run() {
        try {
            for (Batch b = queue.take(); b != END; b = queue.take()) {
                if (unreachable()) droppedUnreachableQueued += b.spans();
                else send(b);
            }
        } catch (InterruptedException e) {
            // finish() was interrupted: what is still queued is dropped
            for (Batch b; (b = queue.poll()) != null; ) droppedGaveUp += b.spans();
        }
    }

    private void send(Batch b) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(settings.endpoint())
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(b.request().toByteArray()))
                .build();
        long backoff = settings.initialBackoff().toNanos();
        for (int attempt = 1; ; attempt++) {
            if (attempt > 1) retries++;
            requests++;
            long wait = backoff;
            String failure;
            try {
                HttpResponse<byte[]> r = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                int code = r.statusCode();
                if (code / 100 == 2) {
                    unreachableUntil = 0;
                    delivered(b.spans(), r.body());
                    return;
                }
                failure = "HTTP " + code + " from " + settings.endpoint() + snippet(r.body());
                if (code != 429 && code != 502 && code != 503 && code != 504) {
                    rejected += b.spans();
                    problem = failure;
                    return;
                }
                long after = retryAfterNanos(r);
                if (after > 0) wait = Math.max(wait, after);
            } catch (IOException e) {
                failure = "cannot reach the OTLP receiver at " + settings.endpoint() + ": " + describe(e);
                if (attempt >= settings.maxAttempts()) {
                    // nothing got through: no point in waiting through the same for every batch left
                    Duration pause = settings.unreachablePause();
                    unreachableUntil = pause == null ? Long.MAX_VALUE : System.nanoTime() + Math.max(1, pause.toNanos());
                }
            }
            if (attempt >= settings.maxAttempts()) {
                droppedGaveUp += b.spans();
                problem = failure + " (gave up after " + attempt + " attempts)";
                return;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(wait, settings.maxBackoff().toNanos()));
            backoff = Math.min(backoff * 2, settings.maxBackoff().toNanos());
        }
    }

    private void delivered(int spans, byte[] body) {
        sent += spans;
        long refused = 0;
        try {
            ExportTraceServiceResponse response = ExportTraceServiceResponse.parseFrom(body);
            if (response.hasPartialSuccess()) {
                refused = Math.min(spans, Math.max(0, response.getPartialSuccess().getRejectedSpans()));
                String message = response.getPartialSuccess().getErrorMessage();
                if (refused > 0 || !message.isEmpty()) problem = "receiver: " + refused + " spans rejected" + (message.isEmpty() ? "" : ": " + message);
            }
        } catch (InvalidProtocolBufferException e) {
            // a 2xx whose body is no ExportTraceServiceResponse: the spans were taken, say so
            problem = "the receiver's 2xx answer is not an ExportTraceServiceResponse: " + e.getMessage();
        }
        rejected += refused;
        accepted += spans - refused;
    }

    /** The reason in words: the JDK client often wraps it, and a refused connection has no message. */
    static String describe(IOException e) {
        if (e instanceof java.net.http.HttpConnectTimeoutException) return "connect timed out";
        if (e instanceof java.net.http.HttpTimeoutException) return "no answer in time";
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) return t.getMessage();
        }
        if (e instanceof java.net.ConnectException) return "connection refused";
        return e.getClass().getSimpleName();
    }

    private static long retryAfterNanos(HttpResponse<?> r) {
        String v = r.headers().firstValue("Retry-After").orElse(null);
        if (v == null) return 0;
        try {
            return TimeUnit.SECONDS.toNanos(Long.parseLong(v.trim()));
        } catch (NumberFormatException e) {
            return 0; // an HTTP date: fall back to our own backoff
        }
    }

    private static String snippet(byte[] body) {
        if (body == null || body.length == 0) return "";
        String s = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
        return s.isEmpty() ? "" : ": " + s;
    }
}
