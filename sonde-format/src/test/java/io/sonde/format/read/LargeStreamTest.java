package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A 1 GiB stream is read in a JVM whose heap is 32 MiB: the reader streams, it never loads the input. */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang fails instead of blocking the build
class LargeStreamTest {

    @Test
    void oneGibibyteStreamsThroughA32MibHeap() throws IOException, InterruptedException {
        long dataFrames = 4_200; // x 260 kB per frame: just over 1 GiB
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx32m", "-cp", System.getProperty("java.class.path"),
                LargeStreamMain.class.getName(), String.valueOf(dataFrames))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        long records = dataFrames * LargeStreamMain.RECORDS_PER_FRAME;
        assertThat(out).startsWith("records " + records + " frames " + (dataFrames + 2) + " end COMPLETE bytes ");
        long bytes = Long.parseLong(out.split(" ")[7]);
        assertThat(bytes).isGreaterThan(1L << 30);
    }
}
