package io.sonde.core.writer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.core.config.SondeConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Writers of plug-ins (writer=kafka) that are not on the class path fail with a message saying what to add. */
class WritersTest {
    @Test
    void kafkaWithoutSondeKafkaOnTheClassPathSaysWhatToAdd() {
        assertThatThrownBy(() -> Writers.create(SondeConfig.of(Map.of("writer", "kafka")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("writer=kafka").hasMessageContaining("sonde-kafka");
    }
}
