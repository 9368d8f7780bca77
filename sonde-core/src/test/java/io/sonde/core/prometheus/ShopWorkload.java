package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload the Prometheus endpoint tests count: per thread {@link #ADDS} {@code shop.Cart.add}
 * calls of which every 10th throws, then {@link #CHECKOUTS} {@code shop.Cart.checkout} calls, each
 * calling {@code shop.Db.query}, which sleeps 3 ms.
 */
public final class ShopWorkload {
    public static final int THREADS = 2;
    public static final int ADDS = 500;
    public static final int CHECKOUTS = 20;
    /** Monitored calls in all: adds, checkouts and queries. */
    public static final long CALLS = THREADS * (ADDS + 2L * CHECKOUTS);

    private ShopWorkload() {}

    /** Runs the workload on {@link #THREADS} threads and waits for them (at most 60 s). */
    public static void run(Monitor app) throws InterruptedException {
        MethodProbe add = app.methodProbe("shop.Cart.add", "()V");
        MethodProbe checkout = app.methodProbe("shop.Cart.checkout", "()V");
        MethodProbe query = app.methodProbe("shop.Db.query", "()V");
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            workers.add(new Thread(() -> {
                for (int i = 0; i < ADDS; i++) {
                    boolean e = add.enter();
                    if (i % 10 == 0) add.exitExceptionally(e, new IllegalStateException("full"));
                    else add.exit(e);
                }
                for (int i = 0; i < CHECKOUTS; i++) {
                    boolean c = checkout.enter();
                    boolean q = query.enter();
                    try {
                        Thread.sleep(3);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    query.exit(q);
                    checkout.exit(c);
                }
            }, "shop-" + t));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join(60_000);
            assertThat(w.isAlive()).isFalse();
        }
    }
}
