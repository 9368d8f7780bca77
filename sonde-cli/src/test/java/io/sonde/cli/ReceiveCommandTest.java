package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde receive} in its own JVM: real TCP, real files, stopped with SIGTERM. */
@Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang fails instead of blocking the build
class ReceiveCommandTest {
    @TempDir
    Path out;

    @TempDir
    Path logs;

    private Path log;

    /** Reads the lines of a growing file, waiting (bounded) for each next line. */
    static final class Lines {
        private final Path file;
        private int next;

        Lines(Path file) {
            this.file = file;
        }

        String readLine() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
                List<String> complete = new ArrayList<>();
                int start = 0;
                for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
                    complete.add(text.substring(start, i));
                    start = i + 1;
                }
                if (complete.size() > next) {
                    return complete.get(next++);
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no line " + (next + 1) + " within 30 s; output so far:\n" + text);
                }
                Thread.sleep(20);
            }
        }
    }

    @Test
    void receivesStoresPrintsOneLinePerConnectionAndStopsOnSigterm() throws Exception {
        log = logs.resolve("receive.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SondeCommand.class.getName(),
                "receive", "--port", "0", "--out", out.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile()) // a file: Process.destroy() closes pipes, and we read after it
                .start();
        try {
            Lines stdout = new Lines(log);
            String first = stdout.readLine();
            Matcher m = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+), storing into (.*) \\(Ctrl-C to stop\\)").matcher(String.valueOf(first));
            assertThat(m.matches()).as(first).isTrue();
            int port = Integer.parseInt(m.group(1));

            byte[] golden = GoldenFiles.bytes("full.sonde");
            int goodPort;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                goodPort = s.getLocalPort();
                s.getOutputStream().write(golden);
            }
            List<String> lines = new ArrayList<>();
            lines.add(stdout.readLine());
            lines.add(stdout.readLine());
            int badPort;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                badPort = s.getLocalPort();
                s.getOutputStream().write("not a stream".getBytes(StandardCharsets.US_ASCII));
                lines.add(stdout.readLine());
                lines.add(stdout.readLine());
            }
            Path stored = out.resolve(GoldenScenarios.FULL_AGENT.toString()).resolve("sonde-" + GoldenScenarios.FULL_AGENT + "-000000.sonde");
            assertThat(lines).containsExactly(
                    "opened 127.0.0.1:" + goodPort,
                    "closed 127.0.0.1:" + goodPort + ": agent " + GoldenScenarios.FULL_AGENT + ", 4 frames, " + (golden.length - 12)
                            + " bytes, sequences 0..3, none missing, trailer received -> " + stored,
                    "opened 127.0.0.1:" + badPort,
                    "failed 127.0.0.1:" + badPort + " at offset 0: not a Sonde stream: bad magic byte 0x6e (expected 0x89)");
            assertThat(Files.readAllBytes(stored)).isEqualTo(golden);

            p.destroy(); // SIGTERM: graceful stop through the shutdown hook
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(stdout.readLine()).isEqualTo("stopped: 2 connections (1 failed), 1 agents, 4 frames, " + (golden.length - 12) + " bytes");
            assertThat(p.exitValue()).isEqualTo(143); // terminated by SIGTERM
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void badOptionsAreUserErrors() {
        Object[] r = DumpCommandTest.run("receive", "--port", "70000", "--out", out.toString());
        assertThat(r[0]).as("a value out of range is a usage error").isEqualTo(2);
        assertThat((String) r[2]).contains("sonde receive: --port must be between 0 and 65535, got 70000");
        Object[] busy;
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            busy = DumpCommandTest.run("receive", "--port", String.valueOf(taken.getLocalPort()), "--out", out.toString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(busy[0]).isEqualTo(1);
        assertThat((String) busy[2]).startsWith("sonde receive: cannot listen on 127.0.0.1:");
        Object[] missing = DumpCommandTest.run("receive", "--out", out.toString());
        assertThat(missing[0]).isEqualTo(2);
    }
}
