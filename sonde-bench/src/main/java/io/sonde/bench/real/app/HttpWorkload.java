package io.sonde.bench.real.app;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP workload on Javalin 7 / Jetty 12: a server on 127.0.0.1 with a few routes and
 * {@value #CLIENTS} client threads in the same JVM making a bounded number of requests (plain
 * text, path parameters, a POSTed body, a missing route, a handler that throws). Request
 * {@code i} always asks the same; every answer is checked against what it must be, and its
 * status and body go into an order-independent digest.
 */
final class HttpWorkload implements Workload {

    private static final int CLIENTS = 2;

    private Javalin server;
    private String base;

    @Override
    public void prepare() {
        server = Javalin.create(cfg -> cfg.routes
                .get("/hello", ctx -> ctx.result("hello"))
                .get("/items/{id}", HttpWorkload::item)
                .post("/echo", ctx -> ctx.result(ctx.body().toUpperCase(Locale.ROOT)))
                .get("/fail", ctx -> {
                    throw new IllegalStateException("failing on purpose");
                })).start("127.0.0.1", 0);
        base = "http://127.0.0.1:" + server.port();
        request(-1); // the first request loads the request path's classes, before the measured run
    }

    private static void item(Context ctx) {
        long id = Long.parseLong(ctx.pathParam("id"));
        ctx.result(expectedItem(id));
    }

    private static String expectedItem(long id) {
        return "item-" + id + "-" + (id * 31 % 1000);
    }

    @Override
    public Outcome run(long ops, Slices slices) throws InterruptedException {
        AtomicLong next = new AtomicLong();
        AtomicLong digest = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Thread t = new Thread(() -> {
                for (long i = next.getAndIncrement(); i < ops; i = next.getAndIncrement()) {
                    slices.starting(i);
                    try {
                        digest.addAndGet(request(i));
                    } catch (RuntimeException | AssertionError e) {
                        failures.add("request " + i + ": " + e);
                    }
                }
            }, "client-" + c);
            clients.add(t);
            t.start();
        }
        for (Thread t : clients) {
            t.join();
        }
        return new Outcome(digest.get(), ops, failures);
    }

    /** Makes request {@code i}, checks the answer, and returns its hash (a sum of them is the digest). */
    private long request(long i) {
        int kind = (int) Math.floorMod(i, 5L);
        String path = switch (kind) {
            case 0 -> "/hello";
            case 1 -> "/items/" + i;
            case 2 -> "/echo";
            case 3 -> "/missing-" + i;
            default -> "/fail";
        };
        String payload = kind == 2 ? "payload-" + i : null;
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
            if (payload != null) {
                c.setRequestMethod("POST");
                c.setDoOutput(true);
                try (OutputStream out = c.getOutputStream()) {
                    out.write(payload.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = c.getResponseCode();
            String body;
            try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
                body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int wantStatus = kind == 3 ? 404 : kind == 4 ? 500 : 200;
            String wantBody = switch (kind) {
                case 0 -> "hello";
                case 1 -> expectedItem(i);
                case 2 -> payload.toUpperCase(Locale.ROOT);
                default -> null; // the server's own error text: only its status is checked
            };
            if (status != wantStatus || (wantBody != null && !wantBody.equals(body))) {
                throw new AssertionError(path + " answered " + status + " '" + body + "', expected " + wantStatus
                        + (wantBody == null ? "" : " '" + wantBody + "'"));
            }
            return Workload.mix(Workload.mix(i, status), wantBody == null ? "" : body);
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop();
        }
    }
}
