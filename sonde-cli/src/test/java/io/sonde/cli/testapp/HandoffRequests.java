package io.sonde.cli.testapp;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Requests that each hand work to a fixed pool, to {@code CompletableFuture.supplyAsync} (the
 * common pool, or its thread-per-task fallback on a small machine) and to a scheduled executor,
 * waiting for each; {@link HandoffRequestsMain} runs them, then submits one task outside any trace.
 * Run under the agent with this class's nested classes included.
 */
public final class HandoffRequests {
    public static final int REQUESTS = 20;

    private HandoffRequests() {}

    /** The request: root {@code handle}, one method per hand-off kind. */
    public static final class Request {
        final ExecutorService pool;
        final ScheduledExecutorService scheduler;

        public Request(ExecutorService pool, ScheduledExecutorService scheduler) {
            this.pool = pool;
            this.scheduler = scheduler;
        }

        public void handle() throws Exception {
            viaPool();
            viaSupplyAsync();
            viaSchedule();
        }

        void viaPool() throws Exception {
            pool.submit(Work::pooled).get();
        }

        void viaSupplyAsync() throws Exception {
            CompletableFuture.supplyAsync(Work::supplied).get();
        }

        void viaSchedule() throws Exception {
            scheduler.schedule(Work::scheduled, 1, TimeUnit.MILLISECONDS).get();
        }
    }

    /** The handed-over work: each piece is its method and one callee. */
    public static final class Work {
        static void pooled() {
            leaf();
        }

        static String supplied() {
            leaf();
            return "supplied";
        }

        static void scheduled() {
            leaf();
        }

        public static void outside() {
            leaf();
        }

        static void leaf() {}
    }
}
