package io.sonde.analysis.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminalProgressBarTest {
    @Test
    void drawsFractionSizesAndRate() {
        TerminalProgressBar bar = new TerminalProgressBar(new PrintStream(new ByteArrayOutputStream()), "reading");
        assertThat(bar.line(512L << 20, 1024L << 20, 2_000_000_000L))
                .isEqualTo("reading [###############...............]  50% 512.0/1024.0 MiB 256.0 MiB/s");
        assertThat(bar.line(3L << 20, -1, 1_000_000_000L)).isEqualTo("reading 3.0 MiB 3.0 MiB/s");
    }

    @Test
    void redrawsInPlaceAndClearsTheLineAtTheEnd() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TerminalProgressBar bar = new TerminalProgressBar(new PrintStream(out, true, StandardCharsets.UTF_8), "reading");
        bar.progress(10, 100);
        bar.done();
        String s = out.toString(StandardCharsets.UTF_8);
        assertThat(s).startsWith("\rreading [###").endsWith("\r").doesNotContain("\n");
    }
}
