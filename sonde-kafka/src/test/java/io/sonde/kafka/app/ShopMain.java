package io.sonde.kafka.app;

/**
 * A tiny application for {@code AgentKafkaWriterTest}, run under the java agent: CALLS calls of
 * {@link Shop} methods (two records each), then prints {@code done} and exits (the agent's
 * shutdown hook drains and closes its writer).
 */
public final class ShopMain {
    private ShopMain() {}

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        Shop shop = new Shop();
        long sum = 0;
        for (int i = 0; i < calls; i++) {
            if (i % 3 == 0) {
                sum += shop.query();
            } else {
                shop.add(i);
            }
        }
        System.out.println("done " + calls + " " + sum);
    }
}
