package io.sonde.cli.testapp;

/** Runs 3 orders of {@link AnalyzeShop} on a thread named shop-worker, then prints "done". */
public final class AnalyzeShopMain {
    private AnalyzeShopMain() {}

    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(() -> {
            for (int i = 0; i < 3; i++) AnalyzeShop.order();
        }, "shop-worker");
        t.start();
        t.join();
        System.out.println("done");
    }
}
