package io.sonde.agent.sample;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The hand-off application the propagation tests run under the agent. Each scenario runs three
 * requests: {@code Request.handle} (the trace root) calls {@code prepare} and then
 * {@code submitAll} (order index 2 in the request's trace), which hands work over to other
 * threads and waits for it. The handed-over work runs {@code Work} methods (method references, so
 * the work's trace starts at the {@code Work} method itself). Then the same hand-offs once more
 * from outside any trace ({@code Orphan}): their work must start traces without a parent.
 * Prints {@code done} at the end; throws if a hand-off changed the behaviour.
 */
public final class HandoffApp {

    static final int REQUESTS = 3;

    private HandoffApp() {}

    /** One kind of hand-off; {@code work} is what the handed-over piece runs. */
    interface Scenario {
        void handOff(Work work) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        Scenario s = switch (name) {
            case "pool" -> HandoffApp::pool;
            case "scheduled" -> HandoffApp::scheduled;
            case "completable" -> HandoffApp::completable;
            case "forkjoin" -> HandoffApp::forkJoin;
            case "threads" -> HandoffApp::threads;
            case "virtual" -> HandoffApp::virtual;
            case "workers" -> HandoffApp::workers;
            default -> throw new IllegalArgumentException("unknown scenario " + name);
        };
        for (int i = 0; i < REQUESTS; i++) {
            new Request().handle(s);
        }
        new Orphan().run(s);
        for (ExecutorService e : List.of(POOL, SCHEDULER, FORK_JOIN, WORKERS)) {
            e.shutdown();
            e.awaitTermination(10, TimeUnit.SECONDS);
        }
        System.out.println("done");
    }

    /** The traced request. */
    public static final class Request {
        void handle(Scenario s) throws Exception {
            prepare();
            submitAll(s);
        }

        void prepare() {}

        void submitAll(Scenario s) throws Exception {
            s.handOff(Work.IN_TRACE);
        }
    }

    /** Hands work over outside any trace (its method is not probed: the tests exclude it). */
    public static final class Orphan {
        void run(Scenario s) throws Exception {
            s.handOff(Work.ORPHAN);
        }
    }

    /** The handed-over work: a probed method per kind. {@code ORPHAN}'s methods are named so. */
    public static class Work {
        static final Work IN_TRACE = new Work();
        static final Work ORPHAN = new OrphanWork();

        public void pooled() {}

        public String called() {
            return "called";
        }

        public void scheduled() {}

        public void periodic() {}

        public String supplied() {
            return "supplied";
        }

        public String applied(String in) {
            return in + "+applied";
        }

        public void thread() {}

        public void virtualThread() {}

        public int leaf(int n) {
            return n;
        }
    }

    /** The same work, named differently, for hand-offs from outside any trace. */
    public static final class OrphanWork extends Work {
        @Override
        public void pooled() {}

        @Override
        public String called() {
            return "called";
        }

        @Override
        public void scheduled() {}

        @Override
        public void periodic() {}

        @Override
        public String supplied() {
            return "supplied";
        }

        @Override
        public String applied(String in) {
            return in + "+applied";
        }

        @Override
        public void thread() {}

        @Override
        public void virtualThread() {}

        @Override
        public int leaf(int n) {
            return n;
        }
    }

    // ---- scenarios

    static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    /** A fixed thread pool: execute, submit(Runnable), submit(Callable). */
    static void pool(Work w) throws Exception {
        CompletableFuture<Void> executed = new CompletableFuture<>();
        POOL.execute(() -> {
            w.pooled();
            executed.complete(null);
        });
        executed.get(10, TimeUnit.SECONDS);
        POOL.submit(w::pooled).get();
        Callable<String> c = w::called;
        check(POOL.submit(c).get(), "called");
    }

    static final ScheduledExecutorService SCHEDULER = Executors.newScheduledThreadPool(1);

    /** One-shot Runnable and Callable, and a periodic task run three times. */
    static void scheduled(Work w) throws Exception {
        SCHEDULER.schedule(w::scheduled, 1, TimeUnit.MILLISECONDS).get();
        Callable<String> c = w::called;
        check(SCHEDULER.schedule(c, 1, TimeUnit.MILLISECONDS).get(), "called");
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Void> thrice = new CompletableFuture<>();
        ScheduledFuture<?> f = SCHEDULER.scheduleAtFixedRate(() -> {
            if (runs.get() < 3) {
                w.periodic();
                if (runs.incrementAndGet() == 3) {
                    thrice.complete(null);
                }
            }
        }, 0, 2, TimeUnit.MILLISECONDS);
        thrice.get(10, TimeUnit.SECONDS);
        f.cancel(false);
    }

    /**
     * {@code supplyAsync} on the common pool (on a 2-core machine its parallelism is 1, and
     * {@code CompletableFuture} then runs each task on a new thread), {@code supplyAsync} and
     * {@code thenApplyAsync} on a pool.
     */
    static void completable(Work w) throws Exception {
        Supplier<String> supplier = w::supplied;
        check(CompletableFuture.supplyAsync(supplier).get(), "supplied");
        check(CompletableFuture.supplyAsync(supplier, POOL).thenApplyAsync(w::applied, POOL).get(), "supplied+applied");
    }

    static final ForkJoinPool FORK_JOIN = new ForkJoinPool(2);

    /** A recursive task: forks and joins; checks that the tasks kept their fork-join identity. */
    static void forkJoin(Work w) throws Exception {
        Sum root = new Sum(w, 0, 64);
        check(FORK_JOIN.invoke(root), 64 * 63 / 2);
        check(FORK_JOIN.submit(new Sum(w, 0, 8)).get(), 8 * 7 / 2);
    }

    /** Sums leaf(i) over [from, to), forking halves. */
    public static final class Sum extends RecursiveTask<Integer> {
        private final Work w;
        private final int from;
        private final int to;

        Sum(Work w, int from, int to) {
            this.w = w;
            this.from = from;
            this.to = to;
        }

        @Override
        protected Integer compute() {
            if (!ForkJoinTask.inForkJoinPool() || getPool() != FORK_JOIN) {
                throw new AssertionError("fork-join identity lost: pool " + getPool());
            }
            if (to - from <= 4) {
                int s = 0;
                for (int i = from; i < to; i++) {
                    s += w.leaf(i);
                }
                return s;
            }
            int mid = (from + to) >>> 1;
            Sum left = new Sum(w, from, mid);
            left.fork();
            int right = new Sum(w, mid, to).compute();
            return left.join() + right;
        }
    }

    /** {@code new Thread(r).start()}, and on JDK 21+ {@code Thread.ofPlatform().start(r)} (reflection: built for 17). */
    static void threads(Work w) throws Exception {
        Thread t = new Thread(w::thread, "plain-" + (w == Work.ORPHAN ? "orphan" : "traced"));
        t.start();
        t.join();
        Object builder = reflect(Thread.class, "ofPlatform");
        if (builder != null) {
            ((Thread) builderStart().invoke(builder, (Runnable) w::thread)).join();
        }
    }

    /** JDK 21+: {@code Thread.ofVirtual().start(r)} and a virtual-thread-per-task executor. */
    static void virtual(Work w) throws Exception {
        Object builder = reflect(Thread.class, "ofVirtual");
        if (builder == null) {
            throw new IllegalStateException("no virtual threads on " + Runtime.version());
        }
        ((Thread) builderStart().invoke(builder, (Runnable) w::virtualThread)).join();
        ExecutorService perTask = (ExecutorService) reflect(Executors.class, "newVirtualThreadPerTaskExecutor");
        perTask.submit(w::virtualThread).get();
        perTask.shutdown();
    }

    static final ExecutorService WORKERS = Executors.newSingleThreadExecutor();

    /**
     * A single-thread pool whose thread is started inside the first request (the pool starts it
     * on the first submit): the orphan task, submitted from outside any trace, must not inherit
     * the starter's trace (the worker-loop rule).
     */
    static void workers(Work w) throws Exception {
        WORKERS.submit(w::pooled).get();
    }

    /** {@code Thread.Builder.start(Runnable)} (JDK 21+). */
    private static Method builderStart() throws Exception {
        return Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
    }

    private static Object reflect(Class<?> owner, String staticMethod) throws Exception {
        try {
            return owner.getMethod(staticMethod).invoke(null);
        } catch (NoSuchMethodException e) {
            return null; // before JDK 21
        }
    }

    private static void check(Object got, Object expected) {
        if (!expected.equals(got)) {
            throw new AssertionError("hand-off changed the result: " + got + ", expected " + expected);
        }
    }
}
