package io.sonde.kafka;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Real sonde-core pipelines run as agents in this JVM, one after the other. */
final class Agents {
    private Agents() {}

    /** What one agent produced, wrote and dropped (its counters after close). */
    record Run(UUID agent, long produced, long written, long dropped) {}

    /** Starts a monitor with the given writer settings, makes {@code calls} calls (2 records each), closes it (trailer sent). */
    static Run run(Map<String, String> writer, int calls) {
        Map<String, String> settings = new HashMap<>();
        settings.put("frame.bytes", "4096"); // small frames: many records on the topic
        settings.put("flush.interval.ms", "5");
        settings.put("policy", "block-forever");
        // close() waits for the last sends' acknowledgements; on a loaded machine Kafka's can take longer than the default
        // 10 s, after which the writer thread is interrupted and the producer closed forcefully, aborting what was in flight
        settings.put("shutdown.timeout.ms", "90000");
        settings.putAll(writer);
        Monitor m = MonitorAccess.start(SondeConfig.of(settings));
        try {
            MethodProbe a = m.methodProbe("shop.Cart.add", "()V");
            MethodProbe b = m.methodProbe("shop.Db.query", "()V");
            for (int i = 0; i < calls; i++) {
                MethodProbe p = i % 3 == 0 ? b : a;
                p.exit(p.enter());
            }
        } finally {
            m.close();
        }
        return new Run(m.agentId(), m.counters().produced(), m.counters().written(), m.counters().dropped());
    }

    static Map<String, String> kafka(String bootstrap, String topic) {
        return Map.of("writer", "kafka", "kafka.bootstrap", bootstrap, "kafka.topic", topic);
    }

    static Map<String, String> tcp(int port) {
        return Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port", String.valueOf(port));
    }
}
