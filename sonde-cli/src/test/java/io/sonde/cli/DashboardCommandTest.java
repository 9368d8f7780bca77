package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde dashboard}'s refusals: they end the command at once with the documented exit codes. */
class DashboardCommandTest {
    @TempDir
    Path tmp;

    @Test
    void aFolderWithoutALogIsAnErrorNamingIt() throws Exception {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Object[] r = CliRun.run("dashboard", empty.toString(), "--port", "0");
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).contains(empty.toString(), "holds no .sonde file");
        Object[] missing = CliRun.run("dashboard", tmp.resolve("nowhere").toString(), "--port", "0");
        assertThat(missing[0]).isEqualTo(1);
        assertThat((String) missing[2]).contains("nowhere");
    }

    @Test
    void badCommandLinesAreUsageErrors() {
        Object[] port = CliRun.run("dashboard", tmp.toString(), "--port", "70000");
        assertThat(port[0]).isEqualTo(2);
        assertThat((String) port[2]).contains("--port must be between 0 and 65535, got 70000");
        assertThat(CliRun.run("dashboard", tmp.toString())[0]).isEqualTo(2); // --port is required
        Object[] cost = CliRun.run("dashboard", tmp.toString(), "--port", "0", "--probe-cost", "fast");
        assertThat(cost[0]).isEqualTo(2);
        assertThat((String) cost[2]).contains("--probe-cost");
    }

    @Test
    void observeNeedsItsTokenFileAndAReachableEndpoint() throws Exception {
        Object[] nothing = CliRun.run("dashboard", "--port", "0");
        assertThat(nothing[0]).isEqualTo(2);
        assertThat((String) nothing[2]).contains("give a LOGDIR, or --observe HOST:PORT --token-file F");
        Object[] noToken = CliRun.run("dashboard", "--observe", "127.0.0.1:7712", "--port", "0");
        assertThat(noToken[0]).isEqualTo(2);
        assertThat((String) noToken[2]).contains("--observe needs --token-file");
        Object[] tokenAlone = CliRun.run("dashboard", tmp.toString(), "--token-file", "t", "--port", "0");
        assertThat(tokenAlone[0]).isEqualTo(2);
        assertThat((String) tokenAlone[2]).contains("--token-file goes with --observe");
        Path token = tmp.resolve("observe.token");
        java.nio.file.Files.writeString(token, "s3cret\n");
        java.nio.file.Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Object[] badAddress = CliRun.run("dashboard", "--observe", "nowhere", "--token-file", token.toString(), "--port", "0");
        assertThat(badAddress[0]).isEqualTo(2);
        assertThat((String) badAddress[2]).contains("expected HOST:PORT");
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Object[] refused = CliRun.run("dashboard", "--observe", "127.0.0.1:" + closed, "--token-file", token.toString(), "--port", "0");
        assertThat(refused[0]).isEqualTo(1);
        assertThat((String) refused[2]).contains("--observe: cannot connect to 127.0.0.1:" + closed);
        java.nio.file.Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Object[] readable = CliRun.run("dashboard", "--observe", "127.0.0.1:" + closed, "--token-file", token.toString(), "--port", "0");
        assertThat(readable[0]).isEqualTo(1);
        assertThat((String) readable[2]).contains("chmod 600");
    }
}
