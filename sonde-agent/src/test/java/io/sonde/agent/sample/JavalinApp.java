package io.sonde.agent.sample;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A real HTTP server (Javalin 7 on Jetty 12) on 127.0.0.1 and a bounded load against it, for the
 * worker-loop test: {@code args[0]} requests from {@code args[1]} client threads, each request
 * handled by {@code Handlers.hello}. Prints {@code load START END} (System.nanoTime, the clock of
 * the records) around the load, then stops the server and prints {@code done}.
 */
public final class JavalinApp {

    private JavalinApp() {}

    public static void main(String[] args) throws Exception {
        int requests = Integer.parseInt(args[0]);
        int clients = Integer.parseInt(args[1]);
        Javalin app = Javalin.create(cfg -> cfg.routes.get("/hello", Handlers::hello)).start("127.0.0.1", 0);
        String url = "http://127.0.0.1:" + app.port() + "/hello";
        get(url); // warm-up, outside the measured load
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int share = requests / clients + (c < requests % clients ? 1 : 0);
            Thread t = new Thread(() -> {
                for (int i = 0; i < share; i++) {
                    get(url);
                }
            }, "client-" + c);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long end = System.nanoTime();
        System.out.println("load " + start + " " + end);
        app.stop();
        System.out.println("done");
    }

    private static void get(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
            try (InputStream in = c.getInputStream()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (c.getResponseCode() != 200 || !body.equals("hello")) {
                    throw new AssertionError("bad answer " + c.getResponseCode() + " " + body);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The application's handler. */
    public static final class Handlers {
        static void hello(Context ctx) {
            ctx.result(greeting());
        }

        static String greeting() {
            return "hello";
        }
    }
}
