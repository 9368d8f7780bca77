package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.testing.GoldenFiles;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde receive}'s limit options and its warning when listening beyond loopback. */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReceiveLimitsCommandTest {
    @TempDir
    Path out;

    @TempDir
    Path logs;

    @Test
    void aNonLoopbackBindWarnsAndTheLimitsApply() throws Exception {
        Path log = logs.resolve("receive.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SondeCommand.class.getName(), "receive", "--port", "0",
                "--out", out.toString(), "--bind", "0.0.0.0", "--max-connections", "1", "--idle-timeout", "2")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            ReceiveCommandTest.Lines stdout = new ReceiveCommandTest.Lines(log);
            Matcher m = Pattern.compile("listening on 0\\.0\\.0\\.0:(\\d+), storing into .*").matcher(stdout.readLine());
            assertThat(m.matches()).isTrue();
            int port = Integer.parseInt(m.group(1));
            assertThat(stdout.readLine()).isEqualTo("warning: the receiver has no authentication: anyone who can reach 0.0.0.0:" + port
                    + " can send data to be stored (up to 1000 agent folders); give --token-file, or bind to 127.0.0.1 unless the network"
                    + " is trusted");
            byte[] golden = GoldenFiles.bytes("full.sonde");
            try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), port)) {
                silent.getOutputStream().write(golden, 0, 20); // inside the first frame, then nothing
                assertThat(stdout.readLine()).isEqualTo("opened 127.0.0.1:" + silent.getLocalPort());
                try (Socket extra = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    assertThat(stdout.readLine()).isEqualTo("refused 127.0.0.1:" + extra.getLocalPort()
                            + ": connection closed unread: 1 connections are being served (limit max-connections)");
                }
                assertThat(stdout.readLine()).matches("failed 127\\.0\\.0\\.1:" + silent.getLocalPort()
                        + " at offset 20: no data for [0-9.]+ s \\(limit idle-timeout 2 s\\); partial frame of 8 bytes discarded");
            }
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(stdout.readLine()).isEqualTo("stopped: 2 connections (1 failed), 0 agents, 0 frames, 0 bytes, 1 connections refused (max-connections)");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void limitsOutOfRangeAreUsageErrors() {
        Object[] r = DumpCommandTest.run("receive", "--port", "0", "--out", out.toString(), "--max-connections", "0");
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("sonde receive: --max-connections must be at least 1, got 0");
        r = DumpCommandTest.run("receive", "--port", "0", "--out", out.toString(), "--max-frame-bytes", "100000000");
        assertThat((String) r[2]).contains("sonde receive: --max-frame-bytes must be between 62 and 67108864 (the format's limit), got 100000000");
        r = DumpCommandTest.run("receive", "--port", "0", "--out", out.toString(), "--max-agents", "-1");
        assertThat((String) r[2]).contains("sonde receive: --max-agents must be at least 1, got -1");
        r = DumpCommandTest.run("receive", "--port", "0", "--out", out.toString(), "--idle-timeout", "0");
        assertThat((String) r[2]).contains("sonde receive: --idle-timeout must be positive, got 0.0");
        r = DumpCommandTest.run("collector", "--port", "0", "--out", out.toString(), "--max-agents", "0");
        assertThat(r[0]).as("the collector takes the same limits").isEqualTo(2);
        assertThat((String) r[2]).contains("sonde collector: --max-agents must be at least 1, got 0");
    }
}
