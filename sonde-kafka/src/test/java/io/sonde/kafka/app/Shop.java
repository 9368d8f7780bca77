package io.sonde.kafka.app;

/** The monitored part of {@link ShopMain}: two small methods the agent instruments. */
public final class Shop {
    private long total;

    public void add(int price) {
        total += price;
    }

    public long query() {
        return total;
    }
}
