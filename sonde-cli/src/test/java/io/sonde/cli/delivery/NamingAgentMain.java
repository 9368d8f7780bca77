package io.sonde.cli.delivery;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.api.live.LongSensor;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * An application using the API with {@code writer=tcp} and a token, run as its own JVM by
 * {@link CollectorNamingProcessTest}: one call every 5 ms until the file named by its third
 * argument exists (at most 120 s), then it closes its monitor (its connection ends). Arguments:
 * collector port, token file, stop file, and optionally an observe token file: then (for
 * {@link RelayProcessTest}) it runs with {@code observe=on} on any free port and raises
 * {@code shop/stock/level} by one with every call; any further arguments {@code KEY=VALUE} are more
 * settings. Prints {@code agent <id> pid <pid> observe <port>}
 * ({@code -1}: no endpoint) at start and {@code closed} at the end.
 */
public final class NamingAgentMain {
    private NamingAgentMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of("writer", "tcp", "tcp.port", args[0], "tcp.token.file", args[1],
                "flush.interval.ms", "5", "policy", "block-forever"));
        if (args.length > 3) settings.putAll(Map.of("observe", "on", "observe.port", "0", "observe.token.file", args[3]));
        for (int i = 4; i < args.length; i++) { // further settings KEY=VALUE (TLS, for RelayTlsProcessTest)
            int eq = args[i].indexOf('=');
            settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Monitor m = MonitorAccess.start(SondeConfig.of(settings));
        LongSensor level = args.length > 3 ? Sonde.live().object("shop/stock", "Stock").longSensor("level", "items", "items in stock") : null;
        System.out.println("agent " + m.agentId() + " pid " + ProcessHandle.current().pid() + " observe " + m.observePort());
        System.out.flush();
        Path stop = Path.of(args[2]);
        MethodProbe probe = m.methodProbe("shop.Cart.checkout", "()V");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(stop) && System.nanoTime() < deadline) {
            boolean on = probe.enter();
            if (level != null) level.add(1);
            probe.exit(on);
            Thread.sleep(5);
        }
        m.close();
        System.out.println("closed");
        System.out.flush();
    }
}
