package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A receiver JVM killed with SIGKILL in the middle of a stream leaves files readable up to the last whole frame. */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang fails instead of blocking the build
class ReceiverKillTest {
    @TempDir
    Path out;

    @Test
    void killedReceiverProcessLeavesReadableFiles() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                ReceiverProcessMain.class.getName(), out.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = stdout.readLine();
            assertThat(first).startsWith("port ");
            int port = Integer.parseInt(first.substring(5).trim());

            UUID agent = new UUID(0xDEAD, 0xBEEF);
            TestStreams.Built b = TestStreams.build(agent, 77, 40, true);
            int wholeFrames = 25;
            int cut = b.frameOffsets.get(wholeFrames) + 33; // inside frame 25
            Path file = out.resolve(agent.toString()).resolve("sonde-" + agent + "-000000.sonde");
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.getOutputStream().write(b.bytes, 0, cut);
                s.getOutputStream().flush();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while ((!Files.exists(file) || Files.size(file) < b.frameOffsets.get(wholeFrames)) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                p.destroyForcibly(); // SIGKILL: no shutdown hooks, no close
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            byte[] stored = Files.readAllBytes(file);
            assertThat(stored).isEqualTo(Arrays.copyOf(b.bytes, b.frameOffsets.get(wholeFrames)));
            try (SondeReader r = SondeReader.open(out)) {
                long n = 0;
                while (r.next()) {
                    n++;
                }
                assertThat(n).isPositive();
                assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.INCOMPLETE);
                assertThat(r.end().message()).isEqualTo("stream ended without trailer at offset " + b.frameOffsets.get(wholeFrames));
            }
        } finally {
            p.destroyForcibly();
        }
    }
}
