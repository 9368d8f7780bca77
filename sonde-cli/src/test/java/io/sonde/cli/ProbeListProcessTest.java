package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.observer.ObserverClient;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Listing a real process's method probes over the wire (PROBE_LIST): a JVM under the java agent
 * with {@code observe=on}; the client and {@code sonde ls-probes} list its probes, one is switched
 * off over the same endpoint, and the next listing shows it off and who switched it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ProbeListProcessTest {
    static final Pattern ENDPOINT = Pattern.compile("sonde-agent: observe endpoint on 127\\.0\\.0\\.1:(\\d+), token in (\\S+)");
    static final String TICK = "io.sonde.cli.testapp.LoopApp$Ticker.tick";
    static final String MARK = "io.sonde.cli.testapp.LoopApp$Ticker.mark";

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

    static ProbeInfo named(ProbeListing l, String name) {
        return l.probes().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no probe " + name + " in " + l));
    }

    @Test
    void theAgentsProbesAreListedOverTheWireAndASwitchShowsInTheNextListing() throws Exception {
        assertThat(AgentJvm.AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        process = AgentJvm.start("observe=on,observe.port=0,writer=discard,include=io.sonde.cli.testapp.*", "target/test-classes",
                "io.sonde.cli.testapp.LoopApp");
        process.awaitLine("ready");
        Matcher m = awaitStderr(ENDPOINT);
        int port = Integer.parseInt(m.group(1));
        Path token = Path.of(m.group(2));
        String address = "127.0.0.1:" + port;

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
}
