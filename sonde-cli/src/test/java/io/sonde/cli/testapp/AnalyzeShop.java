package io.sonde.cli.testapp;

/**
 * The program whose traces {@code AnalyzeAgentRunTest} checks, run under the real agent: each
 * order prices two items, queries the database (2 ms of sleep) and audits, which fails with an
 * exception the order catches. Knows nothing about Sonde.
 */
public final class AnalyzeShop {
    static long sink;

    private AnalyzeShop() {}

    public static void order() {
        price(1);
        price(2);
        query();
        try {
            audit();
        } catch (IllegalStateException expected) {
            sink++;
        }
    }

    static void price(int n) {
        for (int i = 0; i < 1000 * n; i++) sink += i;
    }

    static void query() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void audit() {
        throw new IllegalStateException("audit failed");
    }
}
