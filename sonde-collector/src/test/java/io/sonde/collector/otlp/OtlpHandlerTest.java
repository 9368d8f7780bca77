package io.sonde.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.sonde.analysis.export.otlp.OtlpReceiver;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.TraceContext;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.Collector;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.metrics.CollectorMetrics;
import io.sonde.core.prometheus.PrometheusParser;
import io.sonde.core.prometheus.PrometheusParser.Family;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.core.config.SondeConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code otlp} handler end to end: a real API monitor sends over TCP to a real collector on
 * 127.0.0.1, whose handler exports to a real OTLP/HTTP receiver that decodes every span; the
 * spans' names, counts, parents (call tree and executor hand-off), errors and resource are checked
 * against what the workload did. And a stalled receiver must not stall ingest.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OtlpHandlerTest {
    private static final int THREADS = 3;
    private static final int REQUESTS = 200; // per thread; every 4th hands mail off to a pool thread, every 5th query throws

    @TempDir
    Path out;

    @Test
    void liveSpansOfARealAppMatchItsCallTreesAndHandOffs() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            OtlpHandler handler = new OtlpHandler();
            Collector collector = start(handler, Map.of("otlp.url", receiver.uri().toString(), "otlp.batch", "64", "otlp.queue", "1024"));
            Monitor app;
            try {
                app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port",
                        String.valueOf(collector.port()), "flush.interval.ms", "5", "policy", "block-forever", "cpu.time", "on")));
                try {
                    runShop(app);
                } finally {
                    app.close();
                }
                assertThat(app.counters().written()).isEqualTo(app.counters().produced());
                long expected = THREADS * (REQUESTS * 4L + REQUESTS / 4);
                poll(() -> receiver.spans().size() >= expected && handler.tracesDropped(OtlpHandler.TraceDrop.DISCONNECTED) == 1,
                        () -> describe(receiver, handler, collector));
            } finally {
                collector.stop();
            }
            long expected = THREADS * (REQUESTS * 4L + REQUESTS / 4);
            List<OtlpReceiver.Received> received = receiver.spans();
            assertThat(received).hasSize((int) expected);
            assertThat(handler.spans()).isEqualTo(expected);
            assertThat(handler.sender().accepted()).isEqualTo(expected);
            assertThat(handler.sender().dropped()).isZero();
            // the loop that never ended was dropped when the agent disconnected; nothing else
            assertThat(handler.tracesDropped()).isEqualTo(1);
            assertThat(handler.badRecords()).isZero();

            Map<String, Long> names = received.stream().collect(Collectors.groupingBy(r -> r.span().getName(), Collectors.counting()));
            assertThat(names).isEqualTo(Map.of("shop.Http.get", (long) THREADS * REQUESTS, "shop.Cart.checkout", (long) THREADS * REQUESTS,
                    "shop.Db.query", 2L * THREADS * REQUESTS, "shop.Mail.send", (long) THREADS * REQUESTS / 4));

            Map<String, Span> byId = new HashMap<>();
            for (OtlpReceiver.Received r : received) {
                assertThat(byId.put(hex(r.span().getSpanId().toByteArray()), r.span()))
                        .as("span ids are unique").isNull();
                assertThat(attr(r.resource().getAttributesList(), "sonde.agent.id")).isEqualTo(app.agentId().toString());
                assertThat(attr(r.resource().getAttributesList(), "process.pid")).isEqualTo(Long.toString(ProcessHandle.current().pid()));
            }
            Map<String, String> parentName = Map.of("shop.Cart.checkout", "shop.Http.get", "shop.Db.query", "shop.Cart.checkout",
                    "shop.Mail.send", "shop.Cart.checkout");
            Set<String> traces = new HashSet<>();
            long errors = 0;
            for (Span s : byId.values()) {
                assertThat(s.getEndTimeUnixNano()).isGreaterThanOrEqualTo(s.getStartTimeUnixNano());
                assertThat(attr(s.getAttributesList(), "sonde.cpu_ns")).as("cpu.time=on").isNotNull();
                if (s.getName().equals("shop.Http.get")) {
                    assertThat(s.getParentSpanId().isEmpty()).as("a request's root has no parent").isTrue();
                    traces.add(hex(s.getTraceId().toByteArray()));
                    continue;
                }
                Span parent = byId.get(hex(s.getParentSpanId().toByteArray()));
                assertThat(parent).as("parent of " + s.getName() + " was exported").isNotNull();
                assertThat(parent.getName()).isEqualTo(parentName.get(s.getName()));
                assertThat(s.getTraceId()).as("one trace per request, hand-offs included").isEqualTo(parent.getTraceId());
                assertThat(s.getStartTimeUnixNano()).isGreaterThanOrEqualTo(parent.getStartTimeUnixNano());
                if (s.getName().equals("shop.Mail.send")) {
                    assertThat(attr(s.getAttributesList(), "thread.name")).isEqualTo("mailer");
                    assertThat(attr(s.getAttributesList(), "sonde.handoff_wait_ns")).isNotNull();
                }
                if (s.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR) {
                    errors++;
                    assertThat(s.getName()).isEqualTo("shop.Db.query");
                    assertThat(attr(s.getAttributesList(), "exception.type")).isEqualTo("java.lang.IllegalStateException");
                }
            }
            assertThat(traces).hasSize(THREADS * REQUESTS);
            assertThat(errors).isEqualTo(THREADS * REQUESTS / 5);
        }
    }

    @Test
    void aStalledReceiverDropsSpansCountedAndNeverStallsIngest() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver().hold()) {
            OtlpHandler handler = new OtlpHandler();
            Collector collector = start(handler, Map.of("otlp.url", receiver.uri().toString(), "otlp.batch", "8", "otlp.queue", "1"));
            try {
                Monitor app = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port",
                        String.valueOf(collector.port()), "flush.interval.ms", "5", "policy", "block-forever")));
                try {
                    MethodProbe outer = app.methodProbe("shop.Batch.run", "()V");
                    MethodProbe inner = app.methodProbe("shop.Batch.item", "()V");
                    for (int i = 0; i < 5_000; i++) {
                        boolean o = outer.enter();
                        inner.exit(inner.enter());
                        outer.exit(o);
                    }
                } finally {
                    app.close(); // block-forever: returns only once the collector took every frame
                }
                assertThat(app.counters().written()).isEqualTo(app.counters().produced()).isEqualTo(20_000);
                // the handler works through every frame while the receiver still answers nothing
                poll(() -> otlpStatus(collector).handled() > 0 && otlpStatus(collector).queued() == 0
                        && handler.spans() == 10_000, () -> describe(receiver, handler, collector));
                assertThat(receiver.spans()).as("the receiver is still holding").isEmpty();
                OtlpHttpSenderView o = new OtlpHttpSenderView(handler);
                assertThat(o.queueFull()).as("full send queue: batches dropped at once").isPositive();
                Map<String, Family> m = PrometheusParser.parse(new CollectorMetrics(collector, null).render());
                assertThat(sample(m, "sonde_otlp_spans_dropped_total", "reason", "queue_full")).isEqualTo(o.queueFull());
                assertThat(sample(m, "sonde_otlp_spans_total", null, null)).isEqualTo(10_000);
                assertThat(otlpStatus(collector).dropped()).as("the handler's own queue never overflowed").isZero();
            } finally {
                receiver.release();
                collector.stop();
            }
            var outcome = handler.sender();
            assertThat(outcome.submitted()).isEqualTo(10_000);
            assertThat(outcome.accepted() + outcome.rejected() + outcome.dropped()).as("every span accounted for").isEqualTo(10_000);
            assertThat(outcome.dropped()).isEqualTo(outcome.droppedQueueFull() + outcome.droppedGaveUp() + outcome.droppedUnreachable());
            assertThat((long) receiver.spans().size()).isGreaterThanOrEqualTo(outcome.accepted());
        }
    }

    /** The sender's drop counts, read once. */
    private record OtlpHttpSenderView(long queueFull) {
        OtlpHttpSenderView(OtlpHandler h) {
            this(h.sender().droppedQueueFull());
        }
    }

    private Collector start(OtlpHandler handler, Map<String, String> options) throws Exception {
        List<DataHandler> handlers = new ArrayList<>(List.of(handler));
        return Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out, handlers, options),
                ReceiverListener.none(), line -> {});
    }

    private static String describe(OtlpReceiver receiver, OtlpHandler handler, Collector collector) {
        StringBuilder b = new StringBuilder("received " + receiver.spans().size() + ", made " + handler.spans() + ", bad records "
                + handler.badRecords() + ", sender " + handler.sender() + ", handler " + otlpStatus(collector).describe() + ", dropped traces");
        for (OtlpHandler.TraceDrop r : OtlpHandler.TraceDrop.values()) b.append(' ').append(r).append('=').append(handler.tracesDropped(r));
        return b.toString();
    }

    private static HandlerStatus otlpStatus(Collector c) {
        return c.handlerStatus().stream().filter(h -> h.name().equals(OtlpHandler.NAME)).findFirst().orElseThrow();
    }

    /**
     * Per worker thread, {@link #REQUESTS} requests: Http.get → Cart.checkout → Db.query twice (the
     * second throws every 5th request); every 4th checkout hands Mail.send to the "mailer" thread
     * and waits for it. One more thread enters a loop it never leaves.
     */
    private static void runShop(Monitor app) throws Exception {
        MethodProbe get = app.methodProbe("shop.Http.get", "()V");
        MethodProbe checkout = app.methodProbe("shop.Cart.checkout", "()V");
        MethodProbe query = app.methodProbe("shop.Db.query", "()V");
        MethodProbe mail = app.methodProbe("shop.Mail.send", "()V");
        MethodProbe loop = app.methodProbe("shop.Main.loop", "()V");
        CountDownLatch looping = new CountDownLatch(1);
        Thread forever = new Thread(() -> {
            loop.enter();
            looping.countDown(); // and never exits
        }, "main-loop");
        forever.start();
        looping.await();
        forever.join();
        ExecutorService mailer = Executors.newSingleThreadExecutor(r -> new Thread(r, "mailer"));
        try {
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Thread w = new Thread(() -> {
                    try {
                        for (int i = 0; i < REQUESTS; i++) {
                            boolean g = get.enter();
                            boolean c = checkout.enter();
                            query.exit(query.enter());
                            boolean q = query.enter();
                            if (i % 5 == 0) query.exitExceptionally(q, new IllegalStateException("deadlock"));
                            else query.exit(q);
                            if (i % 4 == 0) {
                                TraceContext ctx = Sonde.currentTrace();
                                mailer.submit(() -> {
                                    Sonde.continueTrace(ctx);
                                    mail.exit(mail.enter());
                                }).get();
                            }
                            checkout.exit(c);
                            get.exit(g);
                        }
                    } catch (Exception e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                }, "http-" + t);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) w.join();
            assertThat(failures).isEmpty();
        } finally {
            mailer.shutdown();
            assertThat(mailer.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void poll(BooleanSupplier done, java.util.function.Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(() -> "condition not met within 90 s: " + state.get()).isNegative();
            Thread.sleep(20);
        }
    }

    private static double sample(Map<String, Family> m, String family, String label, String value) {
        Family f = m.get(family);
        assertThat(f).as(family).isNotNull();
        return f.samples().stream().filter(s -> label == null || value.equals(s.labels().get(label))).mapToDouble(PrometheusParser.Sample::value)
                .sum();
    }

    private static String attr(List<KeyValue> attrs, String key) {
        for (KeyValue kv : attrs) {
            if (kv.getKey().equals(key)) {
                return kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue()) : kv.getValue().getStringValue();
            }
        }
        return null;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }
}
