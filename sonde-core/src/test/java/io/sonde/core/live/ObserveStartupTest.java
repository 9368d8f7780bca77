package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.ConfigException;
import io.sonde.core.config.SondeConfig;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting the observe endpoint from settings: token files, the {@code observe} keys of {@code Sonde.start}. */
class ObserveStartupTest {
    @TempDir
    Path dir;

    private static String mode(Path f) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
    }

    @Test
    void tokenFilesAreOwnerOnlyAlsoWhenReplacingAWiderOne() throws IOException {
        Path f = dir.resolve("sub/t.token");
        ObserveStartup.writeTokenFile(f, "abc");
        assertThat(mode(f)).isEqualTo("rw-------");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        ObserveStartup.writeTokenFile(f, "def");
        assertThat(mode(f)).isEqualTo("rw-------");
        assertThat(Files.readString(f)).isEqualTo("def\n");
        assertThat(ObserveStartup.newToken()).matches("[0-9a-f]{32}").isNotEqualTo(ObserveStartup.newToken());
    }

    @Test
    void generatedTokenGoesToTheGivenDirectoryAndOpensTheEndpoint() throws IOException {
        ObserveStartup.Started s = ObserveStartup.start(Sonde.live(), 0, "", dir);
        try {
            assertThat(s.generated()).isTrue();
            assertThat(s.tokenFile()).isEqualTo(dir.resolve("observe-" + ProcessHandle.current().pid() + ".token"));
            assertThat(mode(s.tokenFile())).isEqualTo("rw-------");
            assertThat(s.describe()).startsWith("observe endpoint on 127.0.0.1:" + s.service().port() + ", token in ").endsWith("(generated)");
            String token = Files.readString(s.tokenFile()).trim();
            try (ObserverClient c = ObserverClient.connect("127.0.0.1", s.service().port(), token, (sub, e) -> {})) {
                assertThat(c.list("jvm/**").attributes()).isNotEmpty();
            }
        } finally {
            s.service().close();
        }
        assertThat(ObserveStartup.generatedTokenDir("file", " out ")).isEqualTo(Path.of("out"));
        assertThat(ObserveStartup.generatedTokenDir("tcp", "out")).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
    }

    @Test
    void aTokenFileOthersMayReadIsRefused() throws IOException {
        Path f = dir.resolve("open.token");
        Files.writeString(f, "x");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> ObserveStartup.start(Sonde.live(), 0, f.toString(), dir))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chmod 600");
    }

    @Test
    void sondeStartWithObserveOnServesUntilTheMonitorCloses() throws IOException {
        Path f = dir.resolve("api.token");
        ObserveStartup.writeTokenFile(f, "api-token");
        int port;
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard", "observe", "on", "observe.port", "0",
                "observe.token.file", f.toString())))) {
            port = m.observePort();
            assertThat(port).isPositive();
            try (ObserverClient c = ObserverClient.connect("127.0.0.1", port, "api-token", (sub, e) -> {})) {
                assertThat(c.get("jvm/threads/count")).hasSize(1);
            }
        }
        assertThat(nothingListensOn(port)).as("the endpoint closed with the monitor").isTrue();
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard")))) {
            assertThat(m.observePort()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> SondeConfig.of(Map.of("observe", "yes"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be one of off, on");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("observe.port", "70000"))).isInstanceOf(ConfigException.class);
    }

    /**
     * Whether a connection to {@code port} on the loopback address is refused. A bind of the freed port is no test (a
     * client socket in TIME_WAIT may hold it), and Linux can give a client the freed port as its own ephemeral port
     * and connect the socket to itself: such a connection is not a listener and is tried again.
     */
    private static boolean nothingListensOn(int port) throws IOException {
        for (int attempt = 0; attempt < 5; attempt++) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
                if (s.getLocalPort() != port) return false;
            } catch (ConnectException refused) {
                return true;
            }
        }
        return false;
    }
}
