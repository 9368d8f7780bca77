package io.sonde.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SondeConfigTest {
    @TempDir
    Path dir;

    static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) p.setProperty(kv[i], kv[i + 1]);
        return p;
    }

    @Test
    void defaults() {
        SondeConfig c = SondeConfig.defaults();
        assertThat(c.get(ConfigKey.WRITER)).isEqualTo("file");
        assertThat(c.getInt(ConfigKey.BUFFER_BYTES)).isEqualTo(262144);
        assertThat(c.getInt(ConfigKey.BUFFERS_MAX)).isEqualTo(1024);
        assertThat(c.get(ConfigKey.POLICY)).isEqualTo("block");
        assertThat(c.getLong(ConfigKey.FLUSH_INTERVAL_MS)).isEqualTo(100);
        assertThat(c.getInt(ConfigKey.FRAME_BYTES)).isEqualTo(262144);
        assertThat(c.getLong(ConfigKey.FILE_SEGMENT_BYTES)).isEqualTo(64L << 20);
        assertThat(c.get(ConfigKey.CPU_TIME)).isEqualTo("off");
        assertThat(c.getLong(ConfigKey.SHUTDOWN_TIMEOUT_MS)).isEqualTo(10000);
        assertThat(c.source(ConfigKey.WRITER)).isEqualTo("default");
    }

    @Test
    void precedenceIsDefaultsFileEnvironmentSystemPropertiesApi() throws Exception {
        Path f = dir.resolve("sonde.properties");
        Files.writeString(f, "# comment\n\nwriter = text\npolicy: drop\nbuffer.bytes=1024\nframe.bytes = 8192\n");
        Map<String, String> env = Map.of("SONDE_CONFIG", f.toString(), "SONDE_POLICY", "block",
                "SONDE_BUFFER_BYTES", "2048", "SONDE_FLUSH_INTERVAL_MS", "7", "SONDE_JAVA_OPTS", "-Xmx1g", "PATH", "/bin");
        Properties sys = props("sonde.buffer.bytes", "4096", "sonde.flush.interval.ms", "8", "other.key", "x");
        SondeConfig c = SondeConfig.resolve(Map.of("flush.interval.ms", "9"), env, sys, true);
        assertThat(c.get(ConfigKey.WRITER)).isEqualTo("text");
        assertThat(c.source(ConfigKey.WRITER)).isEqualTo("file " + f + " line 3");
        assertThat(c.get(ConfigKey.FRAME_BYTES)).isEqualTo("8192");
        assertThat(c.get(ConfigKey.POLICY)).isEqualTo("block");
        assertThat(c.source(ConfigKey.POLICY)).isEqualTo("environment variable SONDE_POLICY");
        assertThat(c.get(ConfigKey.BUFFER_BYTES)).isEqualTo("4096");
        assertThat(c.source(ConfigKey.BUFFER_BYTES)).isEqualTo("system property sonde.buffer.bytes");
        assertThat(c.get(ConfigKey.FLUSH_INTERVAL_MS)).isEqualTo("9");
        assertThat(c.source(ConfigKey.FLUSH_INTERVAL_MS)).isEqualTo("API setting flush.interval.ms");
    }

    @Test
    void unknownKeyInEachSourceNamesKeyAndSourceButNeverTheValue() throws Exception {
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of("bufer.bytes", "1"), Map.of(), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'bufer.bytes'").hasMessageNotContaining("'1'").hasMessageContaining("API setting");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of(), Map.of("SONDE_TCP_TOKN", "s3cret-token"), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("SONDE_TCP_TOKN").hasMessageNotContaining("s3cret-token")
                .hasMessageContaining("environment variable");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of(), Map.of(), props("sonde.polcy", "drop"), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sonde.polcy").hasMessageNotContaining("'drop'")
                .hasMessageContaining("system property");
        Path f = dir.resolve("bad.properties");
        Files.writeString(f, "writer=file\n\n# x\nfile.dri = /tmp/x\n");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of("config", f.toString()), Map.of(), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'file.dri'").hasMessageNotContaining("/tmp/x")
                .hasMessageContaining("file " + f + " line 4");
    }

    @Test
    void theControlConnectorsPublishedPropertiesAreNotConfiguration() {
        // the agent's loopback JMX connector publishes these in the JVM it runs in; a monitor
        // started there afterwards must not reject them as unknown keys
        Properties sys = props("sonde.control.url", "service:jmx:rmi:///jndi/rmi://127.0.0.1:1/jmxrmi");
        sys.setProperty("sonde.control.token", "abc");
        sys.setProperty("sonde.policy", "drop");
        SondeConfig c = SondeConfig.resolve(Map.of(), Map.of(), sys, true);
        assertThat(c.get(ConfigKey.POLICY)).isEqualTo("drop");
    }

    @Test
    void badValueInEachSourceNamesKeyValueSourceAndProblem() throws Exception {
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of("buffer.bytes", "1000"), Map.of(), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'1000'").hasMessageContaining("'buffer.bytes'")
                .hasMessageContaining("API setting").hasMessageContaining("power of two");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of(), Map.of("SONDE_POLICY", "wait"), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'wait'").hasMessageContaining("'policy'")
                .hasMessageContaining("environment variable SONDE_POLICY").hasMessageContaining("block, drop");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of(), Map.of(), props("sonde.tcp.port", "seventy"), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'seventy'").hasMessageContaining("'tcp.port'")
                .hasMessageContaining("system property sonde.tcp.port").hasMessageContaining("whole number");
        Path f = dir.resolve("bad.properties");
        Files.writeString(f, "cpu.time = sometimes\n");
        assertThatThrownBy(() -> SondeConfig.resolve(Map.of(), Map.of("SONDE_CONFIG", f.toString()), new Properties(), true))
                .isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("sometimes").hasMessageContaining("'cpu.time'")
                .hasMessageContaining("file " + f + " line 1").hasMessageContaining("off, on, roots");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("agent.id", "not-a-uuid")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("UUID");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("frame.bytes", "100")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("between 4096 and");
    }

    /** The JMX connector's published properties (address, token) are not configuration keys. */
    @Test
    void theControlConnectorsSystemPropertiesAreNotConfiguration() {
        Properties sys = props("sonde.control.url", "service:jmx:rmi://x", "sonde.control.token", "secret",
                "sonde.control.agent", "/a/sonde-agent.jar", "sonde.policy", "drop");
        SondeConfig c = SondeConfig.resolve(Map.of(), Map.of(), sys, false);
        assertThat(c.get(ConfigKey.POLICY)).isEqualTo("drop");
    }

    @Test
    void missingOrMalformedFileIsAClearError() throws Exception {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("config", missing.toString())))
                .isInstanceOf(ConfigException.class).hasMessage("configuration file " + missing + " (API setting config) does not exist");
        Path notUtf8 = dir.resolve("latin1.properties");
        Files.write(notUtf8, "# ok\nfile.dir = /tmp/\u00e9t\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> SondeConfig.of(Map.of("config", notUtf8.toString())))
                .isInstanceOf(ConfigException.class).hasMessage("the line is not valid UTF-8 (file " + notUtf8 + " line 2)");
        Path f = dir.resolve("odd.properties");
        Files.writeString(f, "writer file\n");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("config", f.toString())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("file " + f + " line 1")
                .hasMessageContaining("key = value").hasMessageNotContaining("writer file");
    }

    @Test
    void aSecretInAConfigurationFileNeverReachesAnErrorMessage() throws Exception {
        String secret = "s3cr3t-Token-42";
        Path f = dir.resolve("secret.properties");
        for (String line : new String[] {"tcp.port = " + secret, "tcp.pasword = " + secret, "password " + secret, secret}) {
            Files.writeString(f, "# monitoring\nwriter = tcp\n" + line + "\n");
            assertThatThrownBy(() -> SondeConfig.of(Map.of("config", f.toString())))
                    .as(line)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("file " + f + " line 3")
                    .hasMessageNotContaining(secret);
        }
        Files.writeString(f, "tcp.port = " + secret + "\n");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("config", f.toString()))).hasMessageContaining("'tcp.port'");
    }

    @Test
    void everyKeyHasADocumentedDefaultThatPassesItsOwnCheck() {
        for (ConfigKey k : ConfigKey.values()) {
            assertThat(k.check(k.defaultValue())).as(k.key()).isNull();
            assertThat(k.meaning()).isNotBlank();
            assertThat(k.environmentVariable()).startsWith("SONDE_");
        }
    }
}
