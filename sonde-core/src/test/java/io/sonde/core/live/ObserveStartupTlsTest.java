package io.sonde.core.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.ConfigException;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.observe.TestKeyPairs;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The observe endpoint's bind and TLS keys ({@code observe.bind}, {@code observe.tls.key.store},
 * {@code observe.tls.password.file}) through {@code Sonde.start}, on 127.0.0.1 with a key pair
 * made by keytool: a TLS client is served, a plain one refused, and every bad value is refused
 * naming its key, before any endpoint or token file exists.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ObserveStartupTlsTest {
    static final String TOKEN = "startup-tls-token";

    @TempDir
    static Path dir;
    static Path keyStore;
    static Path passwordFile;
    static Path trustStore;
    static Path tokenFile;

    @BeforeAll
    static void keys() throws Exception {
        keyStore = TestKeyPairs.keyPair(dir, "agent.p12", "CN=agent", "SAN=ip:127.0.0.1");
        trustStore = TestKeyPairs.trustStoreOf(keyStore, dir, "agent-trust.p12");
        passwordFile = TestKeyPairs.secretFile(dir, "agent.password", TestKeyPairs.PASSWORD + "\n");
        tokenFile = TestKeyPairs.secretFile(dir, "observe.token", TOKEN + "\n");
    }

    static Map<String, String> settings(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        m.put("writer", "discard");
        m.put("observe", "on");
        m.put("observe.port", "0");
        m.put("observe.token.file", tokenFile.toString());
        for (int i = 0; i < keyValues.length; i += 2) m.put(keyValues[i], keyValues[i + 1]);
        return m;
    }

    @Test
    void anEndpointWithTlsKeysServesTlsClientsAndRefusesPlainOnes() throws Exception {
        try (Monitor m = MonitorAccess.start(SondeConfig.of(settings("observe.bind", "127.0.0.1",
                "observe.tls.key.store", keyStore.toString(), "observe.tls.password.file", passwordFile.toString())))) {
            int port = m.observePort();
            assertThat(port).isPositive();
            SSLContext tls = ObserverClient.trusting(trustStore, TestKeyPairs.PASSWORD.toCharArray());
            try (ObserverClient c = ObserverClient.connect("127.0.0.1", port, TOKEN, (sub, e) -> {}, tls)) {
                assertThat(c.get("jvm/threads/count")).hasSize(1);
            }
            assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", port, TOKEN, (sub, e) -> {}).close())
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void startedDescribesItsBindAndTls() throws Exception {
        ObserveStartup.Started s = ObserveStartup.start(LiveRuntime.bare(io.sonde.core.live.mib.LiveClock.system()), 0,
                tokenFile.toString(), dir, "127.0.0.1", keyStore.toString(), passwordFile.toString());
        try {
            assertThat(s.tls()).isTrue();
            assertThat(s.describe()).startsWith("observe endpoint on 127.0.0.1:" + s.service().port() + " (TLS), token in ");
            assertThat(s.endpoint()).isEqualTo("127.0.0.1:" + s.service().port());
        } finally {
            s.service().close();
        }
    }

    @Test
    void aNonLoopbackBindWithoutTlsIsRefusedNamingTheKeys() {
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.bind", "0.0.0.0"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("observe.bind=0.0.0.0").hasMessageContaining("not a loopback address")
                .hasMessageContaining("needs TLS").hasMessageContaining("observe.tls.key.store");
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.bind", "no-such-host.invalid"))))
                .hasMessageContaining("observe.bind=no-such-host.invalid").hasMessageContaining("unknown host");
        assertThatThrownBy(() -> SondeConfig.of(settings("observe.bind", " "))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("observe.bind");
    }

    @Test
    void badTlsKeyValuesAreRefusedNamingTheKey() throws Exception {
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.tls.key.store", keyStore.toString()))))
                .hasMessageContaining("observe.tls.key.store needs observe.tls.password.file");
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.tls.password.file", passwordFile.toString()))))
                .hasMessageContaining("observe.tls.password.file is set without observe.tls.key.store");
        Path missing = dir.resolve("missing.p12");
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.tls.key.store", missing.toString(),
                "observe.tls.password.file", passwordFile.toString()))))
                .hasMessageContaining("observe.tls.key.store=" + missing);
        Path wrong = TestKeyPairs.secretFile(dir, "wrong.password", "not-the-password");
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.tls.key.store", keyStore.toString(),
                "observe.tls.password.file", wrong.toString()))))
                .hasMessageContaining("observe.tls.key.store=" + keyStore).hasMessageContaining("observe.tls.password.file=" + wrong);
        Path open = dir.resolve("open.password");
        Files.writeString(open, TestKeyPairs.PASSWORD);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> MonitorAccess.start(SondeConfig.of(settings("observe.tls.key.store", keyStore.toString(),
                "observe.tls.password.file", open.toString()))))
                .hasMessageContaining("observe.tls.password.file=" + open).hasMessageContaining("readable only by its owner");
    }

    @Test
    void aTlsClientTrustingAnotherKeyIsRefused() throws Exception {
        Path stranger = TestKeyPairs.trustStoreOf(TestKeyPairs.keyPair(dir, "stranger.p12", "CN=stranger", "SAN=ip:127.0.0.1"), dir,
                "stranger-trust.p12");
        try (Monitor m = MonitorAccess.start(SondeConfig.of(settings("observe.tls.key.store", keyStore.toString(),
                "observe.tls.password.file", passwordFile.toString())))) {
            SSLContext wrongTrust = ObserverClient.trusting(stranger, TestKeyPairs.PASSWORD.toCharArray());
            assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", m.observePort(), TOKEN, (sub, e) -> {}, wrongTrust).close())
                    .isInstanceOf(ObserveException.class).hasMessageContaining("TLS handshake");
        }
    }
}
