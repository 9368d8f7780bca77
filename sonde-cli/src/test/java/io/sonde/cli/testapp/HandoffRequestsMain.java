package io.sonde.cli.testapp;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Runs {@link HandoffRequests}' requests (not probed itself), then hands a task over outside any trace; prints {@code done}. */
public final class HandoffRequestsMain {
    private HandoffRequestsMain() {}

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1);
        HandoffRequests.Request r = new HandoffRequests.Request(pool, scheduler);
        for (int i = 0; i < HandoffRequests.REQUESTS; i++) r.handle();
        pool.submit(HandoffRequests.Work::outside).get();
        pool.shutdown();
        scheduler.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
        System.out.println("done");
    }
}
