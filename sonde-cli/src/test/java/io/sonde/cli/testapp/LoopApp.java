package io.sonde.cli.testapp;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM for the attach and probes tests: calls {@code Ticker.tick} every millisecond until stdin
 * says {@code stop} (or 120 s pass); on {@code mark} calls {@code Ticker.mark} once and prints
 * {@code marked N}.
 */
public final class LoopApp {

    private LoopApp() {}

    public static void main(String[] args) throws Exception {
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    commands.add(line.trim());
                }
            } catch (Exception e) {
                // stdin closed
            }
            commands.add("stop");
        }, "stdin-reader");
        reader.setDaemon(true);
        reader.start();
        Ticker t = new Ticker();
        t.tick(); // at least one tick before the first mark
        System.out.println("ready");
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        int marks = 0;
        while (System.nanoTime() < deadline) {
            String c = commands.poll();
            if ("stop".equals(c)) {
                break;
            }
            if ("mark".equals(c)) {
                Ticker.mark(++marks);
                System.out.println("marked " + marks);
                System.out.flush();
            }
            t.tick();
            Thread.sleep(1);
        }
        System.out.println("done");
    }

    /** The probed methods. */
    public static final class Ticker {
        private long n;

        void tick() {
            n++;
        }

        static void mark(int n) {
            if (n < 0) {
                throw new IllegalArgumentException();
            }
        }
    }
}
