package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ObserveOptions;
import io.sonde.api.live.ObserveService;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.observe.TestKeyPairs;
import io.sonde.dashboard.live.DirectLiveLink;
import io.sonde.format.observe.AttributeReading;
import io.sonde.observer.ObserverClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde ls/get/suspend/resume --tls-trust-store} and {@code sonde dashboard --observe
 * --tls-trust-store} against an observe endpoint that serves TLS, on 127.0.0.1 with key pairs made
 * by keytool: with the endpoint's certificate trusted the commands work; without a trust store, with
 * one holding another certificate, or with a bad password file, each fails with one line saying what
 * to give.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LiveCommandsTlsTest {
    static final String TOKEN = "cli-tls-token";

    @TempDir
    static Path dir;
    static LiveRuntime live;
    static ObserveService endpoint;
    static LongSensor level;
    static String address;
    static String tokenFile;
    static String trustStore;
    static String trustPassword;
    static String strangerTrust;

    @BeforeAll
    static void tlsEndpoint() throws Exception {
        Path keyStore = TestKeyPairs.keyPair(dir, "endpoint.p12", "CN=endpoint", "SAN=ip:127.0.0.1");
        Path password = TestKeyPairs.secretFile(dir, "endpoint.password", TestKeyPairs.PASSWORD);
        trustStore = TestKeyPairs.trustStoreOf(keyStore, dir, "endpoint-trust.p12").toString();
        trustPassword = password.toString();
        strangerTrust = TestKeyPairs.trustStoreOf(TestKeyPairs.keyPair(dir, "stranger.p12", "CN=stranger", "SAN=ip:127.0.0.1"), dir,
                "stranger-trust.p12").toString();
        tokenFile = TestKeyPairs.secretFile(dir, "observe.token", TOKEN).toString();
        live = LiveRuntime.bare(LiveClock.system());
        level = live.object("shop/stock/apple", "StockItem").longSensor("level", "items", "items in stock");
        level.set(17);
        endpoint = live.observe(ObserveOptions.of(0, TOKEN).bind("127.0.0.1").tls(keyStore, password));
        address = "127.0.0.1:" + endpoint.port();
    }

    @AfterAll
    static void close() {
        if (endpoint != null) endpoint.close();
        if (live != null) live.close();
    }

    @Test
    void lsGetSuspendAndResumeWorkWithTheTrustStore() {
        Object[] ls = CliRun.run("ls", address + "/shop", "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", trustPassword);
        assertThat(ls[0]).as("%s", ls[2]).isEqualTo(0);
        assertThat((String) ls[1]).contains("apple/", "StockItem", "level");
        Object[] get = CliRun.run("get", address + "/shop/stock/apple/level", "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", trustPassword, "--json");
        assertThat(get[0]).as("%s", get[2]).isEqualTo(0);
        assertThat((String) get[1]).contains("\"path\": \"shop/stock/apple/level\"").contains("17");
        Object[] suspend = CliRun.run("suspend", address, "shop/**", "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", trustPassword);
        assertThat(suspend[0]).as("%s", suspend[2]).isEqualTo(0);
        Object[] resume = CliRun.run("resume", address, "shop/**", "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", trustPassword);
        assertThat(resume[0]).as("%s", resume[2]).isEqualTo(0);
    }

    @Test
    void withoutTheRightTrustTheCommandsFailSayingWhatToGive() throws Exception {
        Object[] plain = CliRun.run("get", address + "/shop/stock/apple/level", "--token-file", tokenFile);
        assertThat(plain[0]).isEqualTo(1);
        assertThat((String) plain[2]).contains("cannot connect to " + address).contains("--tls-trust-store");

        Object[] stranger = CliRun.run("get", address + "/shop/stock/apple/level", "--token-file", tokenFile, "--tls-trust-store",
                strangerTrust, "--tls-trust-store-password-file", trustPassword);
        assertThat(stranger[0]).isEqualTo(1);
        assertThat((String) stranger[2]).contains("cannot connect to " + address + " with TLS").contains("TLS handshake")
                .contains("--tls-trust-store " + strangerTrust + " must hold the endpoint's certificate");

        Path wrongPassword = TestKeyPairs.secretFile(dir, "wrong.password", "not-it");
        Object[] wrong = CliRun.run("ls", address, "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", wrongPassword.toString());
        assertThat(wrong[0]).isEqualTo(1);
        assertThat((String) wrong[2]).contains("--tls-trust-store: ").contains(trustStore);

        Path open = dir.resolve("open.password");
        Files.writeString(open, TestKeyPairs.PASSWORD);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        Object[] readable = CliRun.run("ls", address, "--token-file", tokenFile, "--tls-trust-store", trustStore,
                "--tls-trust-store-password-file", open.toString());
        assertThat(readable[0]).isEqualTo(1);
        assertThat((String) readable[2]).contains("--tls-trust-store-password-file: ").contains("chmod 600");

        Object[] passwordAlone = CliRun.run("ls", address, "--token-file", tokenFile, "--tls-trust-store-password-file", trustPassword);
        assertThat(passwordAlone[0]).isEqualTo(2);
        assertThat((String) passwordAlone[2]).contains("--tls-trust-store-password-file needs --tls-trust-store");
    }

    @Test
    void theDashboardObservesATlsEndpointWithTheTrustStore() throws Exception {
        Object[] plain = CliRun.run("dashboard", "--observe", address, "--token-file", tokenFile, "--port", "0");
        assertThat(plain[0]).isEqualTo(1);
        assertThat((String) plain[2]).contains("--observe").contains("--tls-trust-store");
        Object[] stranger = CliRun.run("dashboard", "--observe", address, "--token-file", tokenFile, "--port", "0", "--tls-trust-store",
                strangerTrust, "--tls-trust-store-password-file", trustPassword);
        assertThat(stranger[0]).isEqualTo(1);
        assertThat((String) stranger[2]).contains("--observe " + address).contains("TLS handshake");
        Object[] alone = CliRun.run("dashboard", "tmp-log", "--port", "0", "--tls-trust-store", trustStore);
        assertThat(alone[0]).isEqualTo(2);
        assertThat((String) alone[2]).contains("--tls-trust-store goes with --observe");

        // the link the command builds with a trust store (the command itself then serves until Ctrl-C)
        DirectLiveLink link = new DirectLiveLink("127.0.0.1", endpoint.port(), TOKEN, tokenFile,
                ObserverClient.trusting(Path.of(trustStore), TestKeyPairs.PASSWORD.toCharArray()));
        try (ObserverClient c = link.connect(link.name(), null, (sub, events) -> {})) {
            assertThat(c.get("shop/stock/apple/level")).extracting(AttributeReading::value).containsExactly(17L);
        }
    }
}
