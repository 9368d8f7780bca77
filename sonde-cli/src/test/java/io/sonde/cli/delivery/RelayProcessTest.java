package io.sonde.cli.delivery;

import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.matching;
import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.privateFile;
import static io.sonde.cli.delivery.CollectorNamingProcessTest.inProcess;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.cli.SondeCommand;
import io.sonde.cli.delivery.CollectorNamingProcessTest.Run;
import io.sonde.format.observe.AttributeReading;
import io.sonde.observer.ObserverClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay with real processes: {@code sonde collector --observe-port --agent-token-file} in its own
 * JVM, an API application with {@code observe=on} writing to it in another, and the CLI reaching
 * the application's own objects through the collector with {@code --agent}: {@code sonde ls} (its
 * own JVM), {@code get} and {@code watch --count}; an unknown agent is a clear error; a
 * {@code watch} (its own JVM) running when the application leaves ends with the reason.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RelayProcessTest {
    static final Pattern AGENT = Pattern.compile("agent ([0-9a-f-]{36}) pid \\d+ observe (\\d+)");

    @TempDir
    Path dir;

    @Test
    void theCliReachesAnAgentsObjectsThroughTheCollectorUntilItLeaves() throws Exception {
        Path token = privateFile(dir.resolve("collector.token"), "relay-collector-s3cret");
        Path agentToken = privateFile(dir.resolve("observe.token"), "relay-agents-s3cret");
        Path stop = dir.resolve("stop");
        try (JvmProcess collector = JvmProcess.start("collector", SondeCommand.class, "collector", "--port", "0", "--out",
                dir.resolve("archive").toString(), "--token-file", token.toString(), "--observe-port", "0", "--agent-token-file",
                agentToken.toString())) {
            int port = Integer.parseInt(matching(CollectorNamingProcessTest.LISTENING, collector.awaitLine("collector listening on ", 60)).group(1));
            int observePort = Integer.parseInt(matching(CollectorNamingProcessTest.SERVED, collector.awaitLine("agents served on ", 60)).group(1));
            String at = "127.0.0.1:" + observePort;
            try (JvmProcess app = JvmProcess.start("agent", NamingAgentMain.class, String.valueOf(port), token.toString(),
                    stop.toString(), agentToken.toString())) {
                Matcher a = matching(AGENT, app.awaitLine("agent ", 60));
                String id = a.group(1);
                awaitAnnounced(observePort, id, "127.0.0.1:" + a.group(2));
                String prefix = id.substring(0, 8);

                JvmProcess ls = JvmProcess.start("ls", SondeCommand.class, "ls", at + "/shop", "--agent", prefix, "--token-file",
                        token.toString(), "--values");
                assertThat(ls.awaitExit(60)).as("sonde ls --agent exit; output:%n%s", ls.output()).isZero();
                assertThat(ls.output()).contains("stock/").containsPattern("(?m)^\\s+level\\s+= \\d+\\s");

                Run get = inProcess("get", at + "/shop/stock/level", "--agent", id, "--token-file", token.toString(), "--json");
                assertThat(get.code()).as("get exit; stderr: %s", get.err()).isZero();
                assertThat(get.out()).contains("\"path\": \"shop/stock/level\"");

                Run watch = inProcess("watch", at, "shop/stock/level", "--agent", prefix, "--token-file", token.toString(), "--json",
                        "--count", "3");
                assertThat(watch.code()).as("watch exit; stderr: %s", watch.err()).isZero();
                List<String> lines = watch.out().lines().filter(l -> l.startsWith("{")).toList();
                assertThat(lines).hasSize(3).allSatisfy(l -> assertThat(l).contains("\"path\": \"shop/stock/level\"")
                        .contains("\"event\": \"VALUE_CHANGED\""));

                Run unknown = inProcess("ls", at, "--agent", "ffffffff", "--token-file", token.toString());
                assertThat(unknown.code()).isEqualTo(1);
                assertThat(unknown.err()).contains("no agent 'ffffffff' at this collector");

                JvmProcess following = JvmProcess.start("watch", SondeCommand.class, "watch", at, "shop/stock/level", "--agent", prefix,
                        "--token-file", token.toString(), "--json", "--seconds", "120");
                following.awaitLine("{", 60);
                Files.createFile(stop);
                app.awaitLine("closed", 60);
                assertThat(following.awaitExit(60)).as("watch exit when the agent left; output:%n%s", following.output()).isEqualTo(1);
                assertThat(following.output()).contains("agent " + id).contains("closed its observe session");
            }
            collector.terminate();
            assertThat(collector.awaitExit(60)).as("collector exit; output:%n%s", collector.output()).isIn(0, 143);
        }
    }

    @Test
    void collectorOptionsForRelayAndTlsAreCheckedAtStart() throws Exception {
        Path token = privateFile(dir.resolve("collector.token"), "relay-collector-s3cret");
        Path agentToken = privateFile(dir.resolve("observe.token"), "relay-agents-s3cret");
        Run noObserve = inProcess("collector", "--port", "0", "--out", dir.resolve("a").toString(), "--token-file", token.toString(),
                "--agent-token-file", agentToken.toString());
        assertThat(noObserve.code()).as("stderr: %s", noObserve.err()).isEqualTo(2);
        assertThat(noObserve.err()).contains("--agent-token-file needs --observe-port");
        Run wide = inProcess("collector", "--port", "0", "--out", dir.resolve("b").toString(), "--token-file", token.toString(),
                "--bind", "0.0.0.0");
        assertThat(wide.code()).as("stderr: %s", wide.err()).isEqualTo(2);
        assertThat(wide.err()).contains("0.0.0.0").contains("not a loopback address").contains("--tls-key-store");
        Run half = inProcess("collector", "--port", "0", "--out", dir.resolve("c").toString(), "--tls-key-store",
                dir.resolve("none.p12").toString());
        assertThat(half.code()).as("stderr: %s", half.err()).isEqualTo(2);
        assertThat(half.err()).contains("--tls-key-store and --tls-password-file go together");
        Path readable = dir.resolve("readable.token");
        Files.writeString(readable, "x\n");
        Files.setPosixFilePermissions(readable, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Run open = inProcess("collector", "--port", "0", "--out", dir.resolve("d").toString(), "--token-file", token.toString(),
                "--observe-port", "0", "--agent-token-file", readable.toString());
        assertThat(open.code()).as("stderr: %s", open.err()).isEqualTo(1);
        assertThat(open.err()).contains("--agent-token-file");
    }

    /** Waits (at most 60 s) until the collector shows the agent's observe endpoint. */
    private static void awaitAnnounced(int observePort, String id, String endpoint) throws Exception {
        String token = "relay-collector-s3cret";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Object last = null;
        try (ObserverClient c = ObserverClient.connect("127.0.0.1", observePort, token, (s, e) -> {})) {
            while (System.nanoTime() < deadline) {
                List<AttributeReading> r = c.get("agents/**");
                for (AttributeReading x : r) if (x.path().equals("agents/" + id + "/observe")) last = x.value();
                if (endpoint.equals(last)) return;
                Thread.sleep(50);
            }
        }
        throw new AssertionError("agents/" + id + "/observe did not become " + endpoint + " within 60 s; last: " + last);
    }
}
