package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.live.observe.TestKeyPairs;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The java agent's observe endpoint with TLS in a real process ({@code observe.tls.key.store},
 * {@code observe.tls.password.file}, a key pair made by keytool, on 127.0.0.1): {@code sonde get
 * --tls-trust-store} reads it, a plain {@code sonde get} is refused saying what to give; a
 * non-loopback {@code observe.bind} without TLS keeps the endpoint down with a line naming the key
 * while the application runs on.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AgentObserveTlsProcessTest {
    private static final Pattern ENDPOINT = Pattern.compile(
            "sonde-agent: observe endpoint on 127\\.0\\.0\\.1:(\\d+) \\(TLS\\), token in (\\S+); try: sonde ls 127\\.0\\.0\\.1:\\d+ "
                    + "--token-file \\S+ --tls-trust-store TRUST-STORE");

    @TempDir
    Path dir;

    private AgentJvm process;

    @AfterEach
    void kill() {
        if (process != null) process.close();
    }

    private Matcher awaitStderr(Pattern p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = p.matcher(process.stderr());
            if (m.find()) return m;
            Thread.sleep(50);
        }
        throw new AssertionError("no match for " + p + " in the application's stderr:\n" + process.stderr());
    }

    private void startLoopApp(String options) throws Exception {
        assertThat(AgentJvm.AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        process = AgentJvm.start(options, "target/test-classes", "io.sonde.cli.testapp.LoopApp");
        process.awaitLine("ready");
    }

    @Test
    void theAgentsTlsEndpointServesTheCliWithTheTrustStoreOnly() throws Exception {
        Path keys = TestKeyPairs.keyPair(dir, "app.p12", "CN=app", "SAN=ip:127.0.0.1");
        Path password = TestKeyPairs.secretFile(dir, "app.password", TestKeyPairs.PASSWORD);
        Path trust = TestKeyPairs.trustStoreOf(keys, dir, "app-trust.p12");
        Path token = TestKeyPairs.secretFile(dir, "observe.token", "agent-tls-s3cret");
        startLoopApp("observe=on,observe.port=0,writer=discard,observe.bind=127.0.0.1,observe.token.file=" + token
                + ",observe.tls.key.store=" + keys + ",observe.tls.password.file=" + password);
        String address = "127.0.0.1:" + awaitStderr(ENDPOINT).group(1);

        Object[] tls = CliRun.run("get", address + "/jvm/threads/count", "--token-file", token.toString(), "--tls-trust-store",
                trust.toString(), "--tls-trust-store-password-file", password.toString());
        assertThat(tls[0]).as("%s", tls[2]).isEqualTo(0);
        assertThat(((String) tls[1]).strip()).matches("jvm/threads/count +\\d+");

        Object[] plain = CliRun.run("get", address + "/jvm/threads/count", "--token-file", token.toString());
        assertThat(plain[0]).isEqualTo(1);
        assertThat((String) plain[2]).contains("cannot connect to " + address).contains("--tls-trust-store");
    }

    @Test
    void aNonLoopbackBindWithoutTlsKeepsTheEndpointDownNamingTheKey() throws Exception {
        startLoopApp("observe=on,observe.port=0,writer=discard,observe.bind=0.0.0.0");
        awaitStderr(Pattern.compile("sonde-agent: observe=on: the observe endpoint did not start, monitoring goes on without it:"
                + " observe\\.bind=0\\.0\\.0\\.0: .*not a loopback address.*observe\\.tls\\.key\\.store"));
        assertThat(process.stderr()).doesNotContain("observe endpoint on ");
        process.send("stop");
        process.awaitLine("done");
        assertThat(process.awaitExit()).isZero();
    }
}
