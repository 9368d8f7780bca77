package io.sonde.format.golden;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checked-in golden files equal, byte for byte, what the test-side encoder builds from the scenarios. */
class GoldenBytesTest {

    @Test
    void everyGoldenFileMatchesItsScenarioByteForByte() throws IOException {
        String target = System.getProperty("sonde.golden.write");
        if (target != null && !target.isBlank()) {
            GoldenFiles.writeAll(Path.of(target));
        }
        for (Map.Entry<String, byte[]> e : GoldenScenarios.all().entrySet()) {
            assertThat(GoldenFiles.bytes(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
        }
    }
}
