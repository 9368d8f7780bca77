package io.sonde.cli.demo;

import io.sonde.api.EventField;
import io.sonde.api.EventType;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.TraceContext;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The bundled sample program of {@code sonde demo}: a small order-processing service whose worker
 * threads handle orders through a few nested operations, instrumented by hand through the Sonde API
 * (method probes around each operation, an "order" event per order, and exceptions for declined
 * payments). Work is real CPU work and short sleeps, so wall and CPU times differ visibly. Each
 * order hands its shipping step to a small pool of {@code shop-shipping} threads through a
 * {@code CompletableFuture} and waits for it, carrying the trace context with the API ({@link
 * Sonde#currentTrace()} at the hand-off, {@link Sonde#continueTrace(TraceContext)} in the task):
 * the printed trees show each order as one tree across two threads, with the hand-off wait.
 */
public final class ShopDemo {
    /** An order the payment service refuses; recorded as an exception leaving the probed methods. */
    static final class PaymentDeclinedException extends Exception {
        private static final long serialVersionUID = 1L;

        PaymentDeclinedException(String message) {
            super(message, null, false, false);
        }
    }

    private final MethodProbe handleOrder;
    private final MethodProbe reserveStock;
    private final MethodProbe quotePrice;
    private final MethodProbe chargePayment;
    private final MethodProbe scheduleShipping;
    private final EventType orderEvent;
    private final int[] regionIds;
    private final AtomicLong declined = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    /** The shop's monitored objects with {@code --live}, else null. */
    private final ShopLive live;
    private volatile long sink;
    /** The shipping step runs here, handed over by the order's worker. */
    private ExecutorService shipping;

    public ShopDemo(Monitor monitor) {
        this(monitor, null);
    }

    /** A shop that also keeps {@code live}'s monitored objects up to date (null: none). */
    public ShopDemo(Monitor monitor, ShopLive live) {
        this.live = live;
        handleOrder = monitor.methodProbe("demo.shop.OrderService.handleOrder", "(Ldemo/shop/Order;)V");
        reserveStock = monitor.methodProbe("demo.shop.Inventory.reserve", "(Ldemo/shop/Order;)V");
        quotePrice = monitor.methodProbe("demo.shop.Pricing.quote", "(Ldemo/shop/Order;)D");
        chargePayment = monitor.methodProbe("demo.shop.Payment.charge", "(Ldemo/shop/Order;D)V");
        scheduleShipping = monitor.methodProbe("demo.shop.Shipping.schedule", "(Ldemo/shop/Order;)V");
        orderEvent = monitor.eventType("demo.shop.order",
                EventField.longField("order"),
                EventField.intField("items"),
                EventField.doubleField("amount"),
                EventField.booleanField("express"),
                EventField.stringField("region"));
        String[] regions = {"north", "south", "east", "west"};
        regionIds = new int[regions.length];
        for (int i = 0; i < regions.length; i++) regionIds[i] = monitor.string(regions[i]);
    }

    /** Runs {@code orders} orders on {@code threads} worker threads and waits for them. */
    public void run(int threads, int orders) throws InterruptedException {
        run(threads, orders, () -> false);
    }

    /**
     * Runs orders on {@code threads} worker threads, each taking a short pause between orders,
     * until {@code stop} says so (checked before each order), and waits for them.
     */
    public void runUntil(int threads, BooleanSupplier stop) throws InterruptedException {
        run(threads, -1, stop);
    }

    private void run(int threads, int orders, BooleanSupplier stop) throws InterruptedException {
        int[] shippingThreads = {0};
        shipping = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "shop-shipping-" + shippingThreads[0]++);
            t.setDaemon(true);
            return t;
        });
        try {
            runWorkers(threads, orders, stop);
        } finally {
            shipping.shutdown();
        }
    }

    /** {@code orders} < 0: until {@code stop}. */
    private void runWorkers(int threads, int orders, BooleanSupplier stop) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            final int worker = t;
            final long share = orders < 0 ? Long.MAX_VALUE : orders / threads + (t < orders % threads ? 1 : 0);
            Thread th = new Thread(() -> {
                SplittableRandom rnd = new SplittableRandom(42 + worker);
                try {
                    for (long i = 0; i < share && !stop.getAsBoolean(); i++) {
                        handleOrder(worker, worker * 1_000_000L + i, rnd);
                        if (live != null) live.pause();
                    }
                } finally {
                    done.countDown();
                }
            }, "shop-worker-" + t);
            th.start();
        }
        if (orders < 0) {
            done.await(); // until stopped: each worker checks the stop condition before every order
        } else if (!done.await(10, TimeUnit.MINUTES)) throw new IllegalStateException("demo workers did not finish");
    }

    public long declined() {
        return declined.get();
    }

    public long completed() {
        return completed.get();
    }

    private void handleOrder(int worker, long orderId, SplittableRandom rnd) {
        boolean e = handleOrder.enter();
        ShopLive.Order order = null;
        boolean declinedPayment = false;
        try {
            int items = 1 + rnd.nextInt(5);
            if (live != null) {
                order = live.orderStarted(worker, orderId, items);
                live.reserve(orderId, items);
            }
            reserve(items);
            if (order != null) order.state("quoting");
            double amount = quote(items, rnd);
            if (order != null) {
                order.amount(amount);
                order.state("charging");
            }
            charge(amount, rnd);
            if (order != null) order.state("shipping");
            shipAsync(rnd.nextInt(10_000));
            boolean express = rnd.nextInt(4) == 0;
            orderEvent.begin().putLong(orderId).putInt(items).putDouble(amount).putBoolean(express)
                    .putString(regionIds[rnd.nextInt(regionIds.length)]).end();
            completed.incrementAndGet();
        } catch (PaymentDeclinedException refused) {
            declinedPayment = true;
            declined.incrementAndGet();
        } finally {
            if (order != null) live.orderFinished(worker, order, declinedPayment);
            handleOrder.exit(e);
        }
    }

    private void reserve(int items) {
        boolean e = reserveStock.enter();
        try {
            burn(20_000 * items);
        } finally {
            reserveStock.exit(e);
        }
    }

    private double quote(int items, SplittableRandom rnd) {
        boolean e = quotePrice.enter();
        try {
            burn(50_000);
            return items * (5 + rnd.nextDouble() * 95);
        } finally {
            quotePrice.exit(e);
        }
    }

    private void charge(double amount, SplittableRandom rnd) throws PaymentDeclinedException {
        boolean e = chargePayment.enter();
        try {
            sleepMicros(200 + rnd.nextInt(300)); // the payment provider's round trip
            if (rnd.nextInt(20) == 0) throw new PaymentDeclinedException("declined: " + amount);
        } catch (PaymentDeclinedException ex) {
            chargePayment.exitExceptionally(e, ex);
            throw ex;
        }
        chargePayment.exit(e);
    }

    /**
     * Hands the shipping step to the shipping pool and waits for it: the hand-off carries this
     * execution's trace context (captured with its time), so the shipping trace is a child of this
     * order's and the analysis joins them into one tree, with the wait in the pool's queue.
     */
    private void shipAsync(int extra) {
        TraceContext parent = Sonde.currentTrace();
        CompletableFuture.runAsync(() -> {
            Sonde.continueTrace(parent);
            try {
                schedule(extra);
            } finally {
                Sonde.continueTrace(null); // the pool thread's later traces are not this order's
            }
        }, shipping).join();
    }

    private void schedule(int extra) {
        boolean e = scheduleShipping.enter();
        try {
            burn(10_000 + extra);
        } finally {
            scheduleShipping.exit(e);
        }
    }

    private void burn(int iterations) {
        long x = sink;
        for (int i = 0; i < iterations; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        sink = x;
    }

    private static void sleepMicros(int micros) {
        long until = System.nanoTime() + micros * 1000L;
        try {
            TimeUnit.MICROSECONDS.sleep(micros);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        while (System.nanoTime() < until) Thread.onSpinWait();
    }
}
