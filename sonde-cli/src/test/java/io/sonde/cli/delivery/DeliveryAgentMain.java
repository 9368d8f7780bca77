package io.sonde.cli.delivery;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.DropReason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An application using the API with {@code writer=tcp} and a token, run as its own JVM by
 * {@link AcknowledgedDeliveryProcessTest}. Arguments: port, token file, calls per thread, threads,
 * calls between 1 ms pauses, then optional KEY=VALUE settings. Prints {@code agent <id>} at start and
 * {@code counts produced=P written=W dropped=D <reason>=N...} after closing the monitor.
 */
public final class DeliveryAgentMain {
    private DeliveryAgentMain() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("writer", "tcp");
        settings.put("tcp.port", args[0]);
        settings.put("tcp.token.file", args[1]);
        settings.put("frame.bytes", "8192"); // many frames: many sequence numbers to check
        settings.put("flush.interval.ms", "5");
        settings.put("policy", "block-forever"); // every record counted: none dropped at the rings
        settings.put("shutdown.timeout.ms", "30000");
        int calls = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int pauseEvery = Integer.parseInt(args[4]);
        for (int i = 5; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            settings.put(kv[0], kv[1]);
        }
        Monitor m = MonitorAccess.start(SondeConfig.of(settings));
        System.out.println("agent " + m.agentId());
        System.out.flush();
        MethodProbe outer = m.methodProbe("shop.Cart.checkout", "()V");
        MethodProbe inner = m.methodProbe("shop.Db.query", "()V");
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                for (int i = 1; i <= calls; i++) {
                    boolean a = outer.enter();
                    boolean b = inner.enter();
                    inner.exit(b);
                    outer.exit(a);
                    if (i % pauseEvery == 0) {
                        sleep();
                    }
                }
            }, "worker-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        m.close();
        StringBuilder s = new StringBuilder("counts produced=" + m.counters().produced() + " written=" + m.counters().written() + " dropped="
                + m.counters().dropped());
        for (DropReason r : DropReason.values()) {
            s.append(' ').append(r.label()).append('=').append(m.counters().dropped(r));
        }
        System.out.println(s);
        System.out.flush();
    }

    private static void sleep() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
