package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Nothing lost at exit: a real JVM whose threads are producing when main calls System.exit. */
@Timeout(120)
class RealJvmExitTest {
    @TempDir
    Path dir;

    @Test
    void everyRecordCountedBeforeExitIsInTheFileAndTheTrailerBalances() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                ExitingApp.class.getName(), dir.toString(), "400"))
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        String out;
        try (var in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        long counted = out.lines().filter(l -> l.startsWith("COUNTED ")).mapToLong(l -> Long.parseLong(l.substring(8)))
                .findFirst().orElseThrow(() -> new AssertionError("no COUNTED line in: " + out));

        LogContent log = LogContent.read(dir);
        assertThat(log.trailer).as("trailer present; %s", log.end).isNotNull();
        assertThat(log.complete).as(log.end).isTrue();
        assertThat(log.trailer.produced()).isEqualTo(log.trailer.written() + log.trailer.droppedTotal());
        assertThat(log.dataRecords).isEqualTo(log.trailer.written());
        assertThat(log.trailer.written()).isGreaterThanOrEqualTo(counted);
        assertThat(counted).isPositive();
    }
}
