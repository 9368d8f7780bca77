package io.sonde.cli.delivery;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.LongSensor;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * An application using the API with {@code writer=tcp} and {@code observe=on}, run as its own JVM
 * by {@link RelayProcessTest}: it serves {@code shop/stock/level}, raised by one every 20 ms with a
 * call recorded each time, until the file named by its fourth argument exists (at most 120 s), then
 * closes its monitor (and with it its observe endpoint). Arguments: collector port, collector token
 * file, observe token file, stop file. Prints {@code agent <id> observe <port>} at start and
 * {@code closed} at the end.
 */
public final class RelayAgentMain {
    private RelayAgentMain() {}

    public static void main(String[] args) throws Exception {
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.port", args[0], "tcp.token.file", args[1],
                "observe", "on", "observe.port", "0", "observe.token.file", args[2], "flush.interval.ms", "5", "policy", "block-forever")));
        LongSensor level = Sonde.live().object("shop/stock", "Stock").longSensor("level", "items", "items in stock");
        System.out.println("agent " + m.agentId() + " observe " + m.observePort());
        System.out.flush();
        Path stop = Path.of(args[3]);
        MethodProbe probe = m.methodProbe("shop.Stock.refill", "()V");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(stop) && System.nanoTime() < deadline) {
            boolean on = probe.enter();
            level.add(1);
            probe.exit(on);
            Thread.sleep(20);
        }
        m.close();
        System.out.println("closed");
        System.out.flush();
    }
}
