package io.sonde.agent.sample;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;

/**
 * The application the integration tests run under the agent, in a JVM of its own. It knows
 * nothing about Sonde. The scenario is the first argument; each prints {@code done} at the end
 * so the tests can tell a normal end from a crash.
 */
public final class SampleApp {

    private SampleApp() {}

    public static void main(String[] args) throws Exception {
        String scenario = args.length > 0 ? args[0] : "basic";
        switch (scenario) {
            case "basic" -> basic();
            case "threads" -> threads();
            case "executor" -> executor();
            case "loop" -> loop();
            case "many" -> many();
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        System.out.println("done");
    }

    /** Nesting, recursion, an exception that passes through two probed methods, a lambda. */
    static void basic() {
        Shop shop = new Shop();
        int total = shop.checkout(3);
        if (total != 6) {
            throw new AssertionError("checkout changed behaviour: " + total);
        }
        if (Recursion.factorial(5) != 120) {
            throw new AssertionError("recursion changed behaviour");
        }
        try {
            shop.failingOrder();
            throw new AssertionError("the exception did not pass through");
        } catch (IllegalStateException expected) {
            System.out.println("caught " + expected.getMessage());
        }
        IntUnaryOperator twice = x -> Recursion.factorial(1) * 2 * x;
        if (twice.applyAsInt(4) != 8) {
            throw new AssertionError("lambda changed behaviour");
        }
        for (int i = 0; i < 10; i++) {
            shop.price(i);
        }
    }

    /** Work on named threads, for the thread filters. */
    static void threads() throws InterruptedException {
        List<Thread> ts = new ArrayList<>();
        for (String name : List.of("worker-1", "worker-2", "noisy-1")) {
            Thread t = new Thread(() -> new Shop().checkout(2), name);
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) {
            t.join();
        }
        new Shop().checkout(1); // main thread
    }

    /** 16 threads at once, each 500 checkouts of 3 items: 16 x 500 x (1 + 3) executions. */
    static void many() throws InterruptedException {
        List<Thread> ts = new ArrayList<>();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        for (int i = 0; i < 16; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                Shop shop = new Shop();
                for (int k = 0; k < 500; k++) {
                    shop.checkout(3);
                }
            }, "many-" + i);
            ts.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : ts) {
            t.join();
        }
    }

    /** Tasks handed to a thread pool and to the common fork-join pool from inside a traced method. */
    static void executor() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            new Dispatcher().dispatch(pool);
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        // submitted outside any trace: the task's trace has no parent
        pool = Executors.newSingleThreadExecutor();
        pool.submit(() -> new Shop().price(7)).get();
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /**
     * Runs until stdin says {@code stop}: the main thread calls {@code Work.tick} in a loop and,
     * when stdin says {@code mark}, calls {@code Marks.mark} once and prints {@code marked N}.
     * Used by the run-time switching and attach tests.
     */
    static void loop() throws Exception {
        java.util.concurrent.BlockingQueue<String> commands = new java.util.concurrent.LinkedBlockingQueue<>();
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
        Work work = new Work();
        work.tick(); // at least one tick before the first mark
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // never outlive a broken test
        int marks = 0;
        while (System.nanoTime() < deadline) {
            String c = commands.poll();
            if ("stop".equals(c)) {
                break;
            }
            if ("mark".equals(c)) {
                Marks.mark(++marks);
                System.out.println("marked " + marks);
                System.out.flush();
            }
            work.tick();
            Thread.sleep(1);
        }
    }

    /** A small class tree with nesting. */
    public static final class Shop {
        int checkout(int items) {
            int sum = 0;
            for (int i = 1; i <= items; i++) {
                sum += price(i);
            }
            return sum;
        }

        int price(int item) {
            return item;
        }

        void failingOrder() {
            validate();
        }

        private void validate() {
            throw new IllegalStateException("out of stock");
        }
    }

    /** Recursion. */
    public static final class Recursion {
        static int factorial(int n) {
            return n <= 1 ? 1 : n * factorial(n - 1);
        }
    }

    /** Hands tasks to executors from inside a traced method. */
    public static final class Dispatcher {
        void dispatch(ExecutorService pool) throws Exception {
            Future<?> a = pool.submit(() -> new Shop().price(1));
            Callable<Integer> c = () -> new Shop().checkout(2);
            Future<Integer> b = pool.submit(c);
            a.get();
            b.get();
            ForkJoinPool.commonPool().submit(() -> new Shop().price(3)).get();
            java.util.concurrent.CountDownLatch latch = new java.util.concurrent.CountDownLatch(1);
            pool.execute(() -> {
                new Shop().price(4);
                latch.countDown();
            });
            latch.await();
        }
    }

    /** The method the switching tests turn on and off. */
    public static final class Work {
        private long n;

        void tick() {
            n += step();
        }

        long step() {
            return 1;
        }
    }

    /** Markers in the record stream, never switched. */
    public static final class Marks {
        static void mark(int n) {
            if (n < 0) {
                throw new IllegalArgumentException();
            }
        }
    }
}
