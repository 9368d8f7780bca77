package io.sonde.cli.delivery;

import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.matching;
import static io.sonde.cli.delivery.AcknowledgedDeliveryProcessTest.privateFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.cli.SondeCommand;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.ObserverClient;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's naming served live, with real processes: {@code sonde collector --observe-port}
 * in its own JVM, two API applications writing to it ({@code writer=tcp}, {@code tcp.token.file}),
 * {@code sonde ls --values} (its own JVM) listing both agents with host, pid and status, and an
 * observer (the Java client) told when one of them disconnects.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CollectorNamingProcessTest {
    static final Pattern LISTENING = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+), .*");
    static final Pattern SERVED = Pattern.compile("agents served on observe endpoint 127\\.0\\.0\\.1:(\\d+) .*");
    static final Pattern AGENT = Pattern.compile("agent ([0-9a-f-]{36}) pid (\\d+) observe -1");
    static final String TOKEN = "naming-s3cret";

    @TempDir
    Path dir;

    @Test
    void lsListsTheAgentsAndAnObserverSeesOneDisconnect() throws Exception {
        Path token = privateFile(dir.resolve("token"), TOKEN);
        Path stopFirst = dir.resolve("stop-first");
        Path stopSecond = dir.resolve("stop-second");
        try (JvmProcess collector = JvmProcess.start("collector", SondeCommand.class, "collector", "--port", "0", "--out",
                dir.resolve("archive").toString(), "--token-file", token.toString(), "--observe-port", "0")) {
            int port = Integer.parseInt(matching(LISTENING, collector.awaitLine("collector listening on ", 60)).group(1));
            int observePort = Integer.parseInt(matching(SERVED, collector.awaitLine("agents served on ", 60)).group(1));
            BlockingQueue<ObservedEvent> events = new LinkedBlockingQueue<>();
            try (ObserverClient watch = ObserverClient.connect("127.0.0.1", observePort, TOKEN, (sub, evs) -> events.addAll(evs));
                    JvmProcess first = JvmProcess.start("agent-1", NamingAgentMain.class, String.valueOf(port), token.toString(),
                            stopFirst.toString());
                    JvmProcess second = JvmProcess.start("agent-2", NamingAgentMain.class, String.valueOf(port), token.toString(),
                            stopSecond.toString())) {
                watch.subscribe("agents/*/status", EnumSet.of(ObservedEvent.Kind.VALUE_CHANGED), DeliveryQos.immediate());
                Matcher a1 = matching(AGENT, first.awaitLine("agent ", 60));
                Matcher a2 = matching(AGENT, second.awaitLine("agent ", 60));
                UUID id1 = UUID.fromString(a1.group(1));
                UUID id2 = UUID.fromString(a2.group(1));
                // both connected: their first frames reached the collector
                awaitValue(watch, "agents/" + id1 + "/status", "connected");
                awaitValue(watch, "agents/" + id2 + "/status", "connected");

                JvmProcess ls = JvmProcess.start("ls", SondeCommand.class, "ls", "127.0.0.1:" + observePort + "/agents", "--token-file",
                        token.toString(), "--values");
                assertThat(ls.awaitExit(60)).as("sonde ls exit; output:%n%s", ls.output()).isZero();
                String listing = ls.output();
                System.out.println("CollectorNamingProcessTest: sonde ls --values:\n" + listing);
                String host = localHostName();
                for (Matcher a : List.of(a1, a2)) {
                    assertThat(listing).contains(a.group(1) + "/").containsPattern("(?m)^\\s+pid\\s+= " + a.group(2) + "\\s");
                }
                assertThat(Pattern.compile("(?m)^\\s+host\\s+= " + Pattern.quote(host) + "\\s").matcher(listing).results().count())
                        .as("host lines naming %s", host).isEqualTo(2);
                assertThat(Pattern.compile("(?m)^\\s+status\\s+= connected\\s").matcher(listing).results().count()).isEqualTo(2);

                Run lsJson = inProcess("ls", "127.0.0.1:" + observePort + "/agents/" + id2, "--token-file", token.toString(), "--values", "--json");
                assertThat(lsJson.code).as("ls --json exit; stderr: %s", lsJson.err).isZero();
                String json = lsJson.out;
                assertThat(json).contains("\"path\": \"agents/" + id2 + "/pid\"").contains("\"value\": " + a2.group(2))
                        .contains("\"path\": \"agents/" + id2 + "/status\"").contains("\"value\": \"connected\"");

                Files.createFile(stopFirst);
                first.awaitLine("closed", 60);
                ObservedEvent gone = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (gone == null && System.nanoTime() < deadline) {
                    ObservedEvent e = events.poll(100, TimeUnit.MILLISECONDS);
                    if (e != null && e.path().equals("agents/" + id1 + "/status") && "disconnected".equals(e.value())) gone = e;
                }
                assertThat(gone).as("a status change to disconnected of %s; events left: %s", id1, events).isNotNull();
                Map<String, Object> now = values(watch.get("agents/*/status"));
                assertThat(now).containsEntry("agents/" + id1 + "/status", "disconnected").containsEntry("agents/" + id2 + "/status", "connected");

                Files.createFile(stopSecond);
                second.awaitLine("closed", 60);
            }
            collector.terminate();
            assertThat(collector.awaitExit(60)).as("collector exit; output:%n%s", collector.output()).isIn(0, 143);
        }
    }

    @Test
    void observePortNeedsATokenAndAFreePort() throws Exception {
        Run noToken = inProcess("collector", "--port", "0", "--out", dir.resolve("a").toString(), "--observe-port", "0");
        assertThat(noToken.code).as("exit; stderr: %s", noToken.err).isEqualTo(2);
        assertThat(noToken.err).contains("--observe-port needs --token-file");
        Path token = privateFile(dir.resolve("token"), TOKEN);
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Run busy = inProcess("collector", "--port", "0", "--out", dir.resolve("b").toString(), "--token-file", token.toString(),
                    "--observe-port", String.valueOf(taken.getLocalPort()));
            assertThat(busy.code).as("exit; stderr: %s", busy.err).isEqualTo(1);
            assertThat(busy.err).contains("cannot serve the agents on observe port " + taken.getLocalPort());
        }
    }

    /** What a sonde command run in this JVM returned and printed. */
    record Run(int code, String out, String err) {}

    /** Runs sonde in this JVM with standard output and error captured. */
    static Run inProcess(String... args) {
        java.io.PrintStream oldOut = System.out;
        java.io.PrintStream oldErr = System.err;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
            int code = SondeCommand.execute(args);
            return new Run(code, out.toString(java.nio.charset.StandardCharsets.UTF_8), err.toString(java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** Waits (at most 60 s) until the attribute reads {@code expected}. */
    private static void awaitValue(ObserverClient c, String path, Object expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Object last = null;
        while (System.nanoTime() < deadline) {
            List<AttributeReading> r = c.get("agents/**");
            last = values(r).get(path);
            if (expected.equals(last)) return;
            Thread.sleep(50);
        }
        throw new AssertionError(path + " did not become " + expected + " within 60 s; last: " + last);
    }

    /** Path to value; null for a sensor not set yet (an agent's object is listed the moment it is made, its values just after). */
    private static Map<String, Object> values(List<AttributeReading> readings) {
        Map<String, Object> m = new java.util.HashMap<>();
        for (AttributeReading r : readings) m.put(r.path(), r.value());
        return m;
    }

    /** The host name an agent reports (sonde-core's Identity: HOSTNAME, else the local host's name). */
    private static String localHostName() throws Exception {
        String env = System.getenv("HOSTNAME");
        return env != null && !env.isBlank() ? env : InetAddress.getLocalHost().getHostName();
    }
}
