package io.sonde.kafka.writer;

import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.Writer;
import io.sonde.core.writer.WriterProvider;
import java.util.Map;

/** Provides {@code writer=kafka} ({@code kafka.bootstrap}, {@code kafka.topic}) when sonde-kafka is on the class path. */
public final class KafkaWriterProvider implements WriterProvider {
    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public Writer create(SondeConfig config) {
        return new KafkaWriter(config.get(ConfigKey.KAFKA_BOOTSTRAP), config.get(ConfigKey.KAFKA_TOPIC), Map.of());
    }
}
