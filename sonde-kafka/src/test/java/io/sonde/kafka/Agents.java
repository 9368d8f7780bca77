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
            // The probes' definitions go out inline in the next frame. Let that frame be the small one
            // of the first call: a frame Kafka refuses (KafkaWriterDropsTest's size limit) would take
            // the definitions with it, and the records of every later frame could not be read. When the
            // writer opened before the probes were made this is the case; otherwise the open's registry
            // frames carried them and the wait costs one flush interval.
            b.exit(b.enter());
            awaitWrittenOrDropped(m, 2);
            for (int i = 1; i < calls; i++) {
                MethodProbe p = i % 3 == 0 ? b : a;
                p.exit(p.enter());
            }
        } finally {
            m.close();
        }
        return new Run(m.agentId(), m.counters().produced(), m.counters().written(), m.counters().dropped());
    }

    private static void awaitWrittenOrDropped(Monitor m, long records) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (m.counters().written() + m.counters().dropped() < records) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the first call's records were not written within 120 s: " + m.counters());
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    static Map<String, String> kafka(String bootstrap, String topic) {
        return Map.of("writer", "kafka", "kafka.bootstrap", bootstrap, "kafka.topic", topic);
    }

    static Map<String, String> tcp(int port) {
        return Map.of("writer", "tcp", "tcp.host", "127.0.0.1", "tcp.port", String.valueOf(port));
    }
}
