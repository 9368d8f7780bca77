package io.sonde.cli.demo;

import io.sonde.api.live.BooleanSensor;
import io.sonde.api.live.DoubleSensor;
import io.sonde.api.live.LiveTree;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.StringSensor;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo shop as monitored objects (the live part of {@code sonde demo --live}, docs/live.md):
 *
 * <ul>
 *   <li>{@code shop/orders/<id>} (type Order), one per order, created when the order starts and
 *       deleted when it falls out of the {@value #RECENT_ORDERS} most recent finished orders, with
 *       sensors {@code item}, {@code items}, {@code amount} and {@code state} (reserving, quoting,
 *       charging, shipping, then done or declined);
 *   <li>{@code shop/stock/<item>} (type StockItem), sensor {@code level}: reserving takes items,
 *       a low level is restocked;
 *   <li>{@code shop/workers/<n>} (type Worker), sensors {@code busy}, {@code completed} and
 *       {@code declined}.
 * </ul>
 */
public final class ShopLive implements AutoCloseable {
    /** Finished orders kept in the tree, so that {@code sonde ls} always finds some. */
    static final int RECENT_ORDERS = 8;
    static final String[] ITEMS = {"apple", "pear", "plum", "fig", "kiwi", "lime"};
    private static final long START_LEVEL = 400;
    private static final long RESTOCK_BELOW = 40;
    private static final long RESTOCK_BY = 360;

    private final LiveTree tree;
    private final MonitoredObject orders;
    private final LongSensor[] stock = new LongSensor[ITEMS.length];
    /** The stock levels, changed under the item's lock so that each level event follows the one before. */
    private final long[] levels = new long[ITEMS.length];
    private final Object[] stockLocks = new Object[ITEMS.length];
    private final Worker[] workers;
    private final ConcurrentLinkedQueue<MonitoredObject> finished = new ConcurrentLinkedQueue<>();
    private final AtomicInteger finishedCount = new AtomicInteger();

    /** Creates the shop's objects under {@code shop} (an old {@code shop} subtree is deleted first). */
    public ShopLive(LiveTree tree, int workerCount) {
        this.tree = tree;
        tree.find("shop").ifPresent(MonitoredObject::delete);
        tree.object("shop", "Shop");
        orders = tree.object("shop/orders", "Orders");
        MonitoredObject stockFolder = tree.object("shop/stock", "Stock");
        for (int i = 0; i < ITEMS.length; i++) {
            stock[i] = stockFolder.createChild(ITEMS[i], "StockItem").longSensor("level", "items", "items in stock");
            stock[i].set(START_LEVEL);
            levels[i] = START_LEVEL;
            stockLocks[i] = new Object();
        }
        MonitoredObject workerFolder = tree.object("shop/workers", "Workers");
        workers = new Worker[workerCount];
        for (int w = 0; w < workerCount; w++) workers[w] = new Worker(workerFolder.createChild(String.valueOf(w), "Worker"));
    }

    /** An order's object and sensors. */
    public static final class Order {
        private final MonitoredObject object;
        private final StringSensor state;
        private final DoubleSensor amount;

        Order(MonitoredObject object, String item, int items) {
            this.object = object;
            object.stringSensor("item", "", "the item ordered").set(item);
            object.longSensor("items", "items", "how many").set(items);
            amount = object.doubleSensor("amount", "EUR", "price quoted");
            state = object.stringSensor("state", "", "reserving, quoting, charging, shipping, done or declined");
            state.set("reserving");
        }

        public void state(String s) {
            state.set(s);
        }

        public void amount(double a) {
            amount.set(a);
        }
    }

    private static final class Worker {
        final BooleanSensor busy;
        final LongSensor completed;
        final LongSensor declined;

        Worker(MonitoredObject o) {
            busy = o.booleanSensor("busy", "", "handling an order now");
            completed = o.longSensor("completed", "orders", "orders completed");
            declined = o.longSensor("declined", "orders", "orders whose payment was declined");
        }
    }

    /** The item an order takes (from its id, so the demo's random sequence stays as without --live). */
    static int itemOf(long orderId) {
        return (int) Math.floorMod(orderId, (long) ITEMS.length);
    }

    /** Worker {@code worker} starts order {@code orderId} of {@code items} items: a new order object. */
    public Order orderStarted(int worker, long orderId, int items) {
        workers[worker].busy.set(true);
        return new Order(orders.createChild(String.valueOf(orderId), "Order"), ITEMS[itemOf(orderId)], items);
    }

    /** Takes {@code items} of the order's item from stock; restocks a low level. */
    public void reserve(long orderId, int items) {
        int i = itemOf(orderId);
        synchronized (stockLocks[i]) {
            long level = levels[i] - items;
            stock[i].set(level);
            if (level < RESTOCK_BELOW) {
                level += RESTOCK_BY;
                stock[i].set(level);
            }
            levels[i] = level;
        }
    }

    /** The order ended (completed or declined); the oldest finished orders leave the tree. */
    public void orderFinished(int worker, Order order, boolean declined) {
        order.state(declined ? "declined" : "done");
        Worker w = workers[worker];
        (declined ? w.declined : w.completed).add(1);
        w.busy.set(false);
        finished.add(order.object);
        if (finishedCount.incrementAndGet() > RECENT_ORDERS) {
            MonitoredObject oldest = finished.poll();
            finishedCount.decrementAndGet();
            if (oldest != null) oldest.delete();
        }
    }

    /** A pause between two orders of a worker (5 to 45 ms), so that a person can follow the shop. */
    public void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(5 + ThreadLocalRandom.current().nextInt(41));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Removes the shop's objects from the tree. */
    @Override
    public void close() {
        tree.find("shop").ifPresent(MonitoredObject::delete);
    }
}
