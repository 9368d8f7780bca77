package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.observer.ObserverClient;
import io.sonde.core.live.observe.TestKeyPairs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The observe endpoint in real processes: the agent's {@code observe=on} (generated token, a given
 * token file, a token file others may read; TLS with {@code observe.tls.key.store} and a key pair
 * made by keytool, and a non-loopback {@code observe.bind} without TLS refused naming the key) with
 * the CLI connecting to it, the agent's method probes listed and switched over the wire, and
 * {@code sonde demo --live} ending by itself after {@code --seconds} with a complete recording.
 */
class LiveProcessesTest {
    private static final Pattern ENDPOINT = Pattern.compile(
            "sonde-agent: observe endpoint on (127\\.0\\.0\\.1:\\d+), token in (\\S+)");
    private static final String TICK = "io.sonde.cli.testapp.LoopApp$Ticker.tick";
    private static final String MARK = "io.sonde.cli.testapp.LoopApp$Ticker.mark";
    private static final Pattern TLS_ENDPOINT = Pattern.compile(
            "sonde-agent: observe endpoint on 127\\.0\\.0\\.1:(\\d+) \\(TLS\\), token in (\\S+); try: sonde ls 127\\.0\\.0\\.1:\\d+ "
                    + "--token-file \\S+ --tls-trust-store TRUST-STORE");

    @TempDir
    Path dir;

    private AgentJvm process;

    @AfterEach
    void kill() {
        if (process != null) process.close();
    }

    /** Waits (at most 60 s) until the agent's stderr matches {@code p}. */
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
    void agentWithObserveOnGeneratesAnOwnerOnlyTokenNextToTheLogAndServesTheCli() throws Exception {
        startLoopApp("observe=on,observe.port=0,file.dir=" + dir + ",include=io.sonde.cli.testapp.*");
        Matcher m = awaitStderr(ENDPOINT);
        String address = m.group(1);
        Path token = Path.of(m.group(2));
        assertThat(token.getParent()).isEqualTo(dir.toAbsolutePath());
        assertThat(token.getFileName().toString()).isEqualTo("observe-" + process.pid() + ".token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(token))).isEqualTo("rw-------");

        Object[] r = CliRun.run("get", address + "/jvm/threads/count", "--token-file", token.toString());
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        assertThat(((String) r[1]).strip()).matches("jvm/threads/count +\\d+");
        assertThat(Long.parseLong(((String) r[1]).strip().split(" +")[1])).isPositive();
        Object[] ls = CliRun.run("ls", address + "/jvm", "--token-file", token.toString());
        assertThat(ls[0]).isEqualTo(0);
        assertThat((String) ls[1]).contains("memory/", "heapUsed", "LONG sensor", "bytes", "JvmThreads");
    }

    @Test
    void agentReadsAGivenTokenFileAndRefusesOneOthersMayRead() throws Exception {
        Path token = dir.resolve("my.token");
        Files.writeString(token, "s3cret\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        startLoopApp("observe=on,observe.port=0,writer=discard,observe.token.file=" + token);
        String address = awaitStderr(ENDPOINT).group(1);
        Object[] r = CliRun.run("get", address + "/jvm/threads", "--token-file", token.toString(), "--json");
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        assertThat((String) r[1]).contains("\"path\": \"jvm/threads/count\"");
        process.close();

        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        startLoopApp("observe=on,observe.port=0,writer=discard,observe.token.file=" + token);
        awaitStderr(Pattern.compile("sonde-agent: observe=on: the observe endpoint did not start, monitoring goes on without it:"
                + " token file .*chmod 600"));
        process.send("stop");
        process.awaitLine("done");
        assertThat(process.awaitExit()).isZero();
    }

    @Test
    void liveDemoEndsAfterItsSecondsWithACompleteRecording() throws Exception {
        Path out = dir.resolve("demo");
        process = AgentJvm.start((String) null, System.getProperty("java.class.path"), "io.sonde.cli.SondeCommand",
                "demo", "--live", "--seconds", "2", "--observe-port", "0", "--threads", "2", "--out", out.toString());
        String line = process.awaitLine("observe endpoint on 127.0.0.1:");
        assertThat(line).contains("token in " + out.resolve("observe.token"));
        process.awaitLine("  follow the shop:  ./sonde watch 127.0.0.1:");
        process.awaitLine("time is up");
        String records = process.awaitLine("records produced");
        assertThat(records).contains(", dropped 0;");
        process.awaitLine("Next: ./sonde analyze");
        assertThat(process.awaitExit()).as(process.stderr()).isZero();
    }

    @Test
    void liveOptionsWithoutLiveAreUsageErrors() {
        assertThat(CliRun.run("demo", "--seconds", "3", "--out", dir.toString())[0]).isEqualTo(2);
        assertThat(CliRun.run("demo", "--observe-port", "0", "--out", dir.toString())[0]).isEqualTo(2);
        assertThat(CliRun.run("demo", "--live", "--orders", "10", "--out", dir.toString())[0]).isEqualTo(2);
        assertThat(CliRun.run("demo", "--live", "--observe-port", "70000", "--out", dir.toString())[0]).isEqualTo(2);
    }

    static ProbeInfo named(ProbeListing l, String name) {
        return l.probes().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no probe " + name + " in " + l));
    }

    /**
     * Listing a real process's method probes over the wire (PROBE_LIST): the client and {@code sonde
     * ls-probes} list its probes, one is switched off over the same endpoint, and the next listing
     * shows it off and who switched it.
     */
    @Test
    void theAgentsProbesAreListedOverTheWireAndASwitchShowsInTheNextListing() throws Exception {
        startLoopApp("observe=on,observe.port=0,writer=discard,include=io.sonde.cli.testapp.*");
        Matcher m = awaitStderr(ENDPOINT);
        String address = m.group(1);
        int port = Integer.parseInt(address.substring(address.indexOf(':') + 1));
        Path token = Path.of(m.group(2));

        try (ObserverClient c = ObserverClient.connect("127.0.0.1", port, io.sonde.cli.live.ObserveOptions.readToken(token), (s, e) -> {})) {
            c.timeout(java.time.Duration.ofSeconds(30));
            ProbeListing before = c.probes("io.sonde.cli.testapp.*", 0, 1000);
            assertThat(before.truncated()).isFalse();
            ProbeInfo tick = named(before, TICK);
            assertThat(tick.on()).isTrue();
            assertThat(tick.origin()).isEqualTo(ProbeInfo.Origin.CONFIGURED);
            assertThat(tick.signature()).isEqualTo("()V");
            assertThat(named(before, MARK).on()).isTrue();

            Object[] json = CliRun.run("ls-probes", address, "io.sonde.cli.testapp.*", "--token-file", token.toString(), "--json");
            assertThat(json[0]).as("%s", json[2]).isEqualTo(0);
            assertThat((String) json[1]).contains("\"total\": " + before.total()).contains("\"truncated\": false")
                    .contains("{\"id\": " + tick.id() + ", \"name\": \"" + TICK + "\", \"signature\": \"()V\", \"on\": true,"
                            + " \"origin\": \"CONFIGURED\", \"detail\": \"\"}");

            assertThat(c.disableProbes("*$Ticker.tick")).isEqualTo(1);
            ProbeListing after = c.probes("io.sonde.cli.testapp.*", 0, 1000);
            ProbeInfo off = named(after, TICK);
            assertThat(off.id()).isEqualTo(tick.id());
            assertThat(off.on()).isFalse();
            assertThat(off.origin()).isEqualTo(ProbeInfo.Origin.SWITCHED);
            assertThat(off.detail()).isEqualTo("switched off at run time by pattern '*$Ticker.tick'");
            assertThat(named(after, MARK).on()).as("only the matching probe").isTrue();
            assertThat(after.total()).isEqualTo(before.total());

            Object[] text = CliRun.run("ls-probes", address, "*$Ticker.*", "--token-file", token.toString());
            assertThat(text[0]).as("%s", text[2]).isEqualTo(0);
            assertThat(((String) text[1]).lines()).anyMatch(l -> l.matches("off +\\Q" + TICK + "\\E +\\(\\)V +#" + tick.id()
                    + " +switched +switched off at run time by pattern '\\*\\$Ticker\\.tick'"));
            assertThat(((String) text[1]).lines()).anyMatch(l -> l.matches("on +\\Q" + MARK + "\\E +\\(I\\)V +#\\d+ +configured"));

            Object[] page = CliRun.run("ls-probes", address, "*$Ticker.*", "--token-file", token.toString(), "--limit", "1");
            assertThat(page[0]).as("%s", page[2]).isEqualTo(0);
            assertThat(((String) page[1]).lines()).hasSize(1);
            assertThat((String) page[2]).contains("1 of 2 matching probes shown; --offset 1 for the next page, or --all");
            Object[] every = CliRun.run("ls-probes", address, "*$Ticker.*", "--token-file", token.toString(), "--all", "--json");
            assertThat((String) every[1]).contains("\"total\": 2").contains(TICK).contains(MARK).contains("\"truncated\": false");

            c.enableProbes(TICK);
            assertThat(named(c.probes(TICK, 0, 10), TICK).on()).isTrue();
        }
        process.send("stop");
        process.awaitLine("done");
        assertThat(process.awaitExit()).isZero();
    }

    @Test
    void theAgentsTlsEndpointServesTheCliWithTheTrustStoreOnly() throws Exception {
        Path keys = TestKeyPairs.keyPair(dir, "app.p12", "CN=app", "SAN=ip:127.0.0.1");
        Path password = TestKeyPairs.secretFile(dir, "app.password", TestKeyPairs.PASSWORD);
        Path trust = TestKeyPairs.trustStoreOf(keys, dir, "app-trust.p12");
        Path token = TestKeyPairs.secretFile(dir, "observe.token", "agent-tls-s3cret");
        startLoopApp("observe=on,observe.port=0,writer=discard,observe.bind=127.0.0.1,observe.token.file=" + token
                + ",observe.tls.key.store=" + keys + ",observe.tls.password.file=" + password);
        String address = "127.0.0.1:" + awaitStderr(TLS_ENDPOINT).group(1);

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
