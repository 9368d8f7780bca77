package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sonde ls/get/watch/suspend/resume} against a real process: {@code sonde demo --live} runs
 * as a separate JVM with its observe endpoint on 127.0.0.1 (a free port) and the commands connect
 * to it over real sockets.
 */
class LiveCommandsTest {
    private static final Pattern EVENT = Pattern.compile(
            "\\{\"path\": \"([^\"]+)\", \"event\": \"(\\w+)\", \"value\": ([^,]+), \"time_ns\": (\\d+), \"id\": \\d+,"
                    + " \"subscription\": \\d+, \"delivery\": (\\d+).*\\}");

    @TempDir
    static Path dir;

    private static AgentJvm demo;
    private static String address;
    private static String token;

    @BeforeAll
    static void startDemo() throws Exception {
        Path out = dir.resolve("demo");
        demo = AgentJvm.start((String) null, System.getProperty("java.class.path"), "io.sonde.cli.SondeCommand",
                "demo", "--live", "--seconds", "240", "--observe-port", "0", "--threads", "2", "--out", out.toString());
        String line = demo.awaitLine("observe endpoint on ");
        Matcher m = Pattern.compile("observe endpoint on (127\\.0\\.0\\.1:\\d+), token in").matcher(line);
        assertThat(m.find()).as(line).isTrue();
        address = m.group(1);
        token = out.resolve("observe.token").toString();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(token)))).isEqualTo("rw-------");
    }

    @AfterAll
    static void stopDemo() {
        if (demo != null) demo.close();
    }

    private static Object[] sonde(String... args) {
        return CliRun.run(args);
    }

    private static List<String> lines(Object text) {
        String s = ((String) text).strip();
        return s.isEmpty() ? List.of() : Arrays.asList(s.split("\\R"));
    }

    @Test
    void lsShowsTheShopsObjectsWithTypesAndAttributes() {
        Object[] r = sonde("ls", address + "/shop", "--token-file", token);
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        String out = (String) r[1];
        assertThat(out).contains("shop/", "orders/", "stock/", "workers/", "Shop", "StockItem", "Worker");
        assertThat(out).containsPattern("\\n {4}apple/ +StockItem +#\\d+");
        assertThat(out).containsPattern("\\n {6}level +LONG sensor +items +#\\d+ +items in stock");
        assertThat(out).containsPattern("\\n {6}busy +BOOLEAN sensor");

        Object[] j = sonde("ls", address + "/shop/stock", "--token-file", token, "--json");
        assertThat(j[0]).isEqualTo(0);
        assertThat((String) j[1]).startsWith("{\"objects\": [").contains("\"path\": \"shop/stock/fig\", \"type\": \"StockItem\"")
                .contains("\"path\": \"shop/stock/fig/level\", \"type\": \"LONG\", \"sensor\": true, \"unit\": \"items\"")
                .doesNotContain("shop/workers");
    }

    @Test
    void getReadsCurrentValues() {
        Object[] r = sonde("get", address + "/shop/stock/*/level", "--token-file", token);
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        List<String> rows = lines(r[1]);
        assertThat(rows).hasSize(6).allMatch(l -> l.matches("shop/stock/\\w+/level +-?\\d+ +items"));

        Object[] below = sonde("get", address + "/shop/stock", "--token-file", token); // an object: the attributes below
        assertThat(lines(below[1])).hasSize(6).allMatch(l -> l.startsWith("shop/stock/"));

        Object[] w = sonde("get", address + "/shop/workers/0", "--token-file", token, "--json");
        assertThat(w[0]).isEqualTo(0);
        assertThat((String) w[1]).contains("\"path\": \"shop/workers/0/busy\"", "\"path\": \"shop/workers/0/completed\"")
                .containsPattern("\"value\": \\d+, \"unit\": \"orders\", \"time_ns\": \\d+");
    }

    @Test
    void watchJsonDeliversTheCountedEventsOfThePatternInOrderPerSensor() {
        Object[] r = sonde("watch", address, "shop/stock/**", "--token-file", token, "--json", "--count", "40");
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        List<String> events = lines(r[1]);
        assertThat(events).hasSize(40);
        Map<String, Long> lastTime = new HashMap<>();
        for (String e : events) {
            Matcher m = EVENT.matcher(e);
            assertThat(m.matches()).as(e).isTrue();
            assertThat(m.group(1)).matches("shop/stock/\\w+/level");
            assertThat(m.group(2)).isEqualTo("VALUE_CHANGED");
            assertThat(m.group(3)).matches("-?\\d+");
            long t = Long.parseLong(m.group(4));
            Long before = lastTime.put(m.group(1), t);
            if (before != null) assertThat(t).as("time of %s after %d", e, before).isGreaterThan(before);
        }
    }

    @Test
    void watchBatchAndPeriodicDeliveries() {
        Object[] r = sonde("watch", address, "shop/**", "--token-file", token, "--json", "--count", "60",
                "--batch", "5", "--flush", "200ms");
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        Map<String, Integer> perDelivery = new HashMap<>();
        for (String e : lines(r[1])) {
            Matcher m = EVENT.matcher(e);
            assertThat(m.matches()).as(e).isTrue();
            perDelivery.merge(m.group(5), 1, Integer::sum);
        }
        assertThat(perDelivery.values()).allMatch(n -> n <= 5).contains(5); // orders change fast: full batches come
        assertThat(perDelivery.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(60);

        Object[] p = sonde("watch", address, "shop/stock/*/level", "--token-file", token, "--json", "--count", "30",
                "--period", "300ms", "--latest");
        assertThat(p[0]).as("%s", p[2]).isEqualTo(0);
        Map<String, Set<String>> pathsPerDelivery = new HashMap<>();
        for (String e : lines(p[1])) {
            Matcher m = EVENT.matcher(e);
            assertThat(m.matches()).as(e).isTrue();
            assertThat(pathsPerDelivery.computeIfAbsent(m.group(5), k -> new HashSet<>()).add(m.group(1)))
                    .as("only the latest value of %s per period", m.group(1)).isTrue();
        }
        assertThat(pathsPerDelivery).hasSizeGreaterThan(1);
    }

    @Test
    void suspendStopsTheEventsAndResumeRestartsThem() {
        try {
            Object[] s = sonde("suspend", address, "shop/stock/**", "--token-file", token);
            assertThat(s[0]).as("%s", s[2]).isEqualTo(0);
            // at least the six stock levels (the count may include the objects' own sensors)
            assertThat((String) s[1]).containsPattern("^suspended ([6-9]|1\\d) sensor\\(s\\) matching 'shop/stock/\\*\\*'");
            Object[] quiet = sonde("watch", address, "shop/stock/**", "--token-file", token, "--json", "--seconds", "2");
            assertThat(quiet[0]).as("%s", quiet[2]).isEqualTo(0);
            assertThat(lines(quiet[1])).isEmpty();
            // other sensors go on
            Object[] workers = sonde("watch", address, "shop/workers/**", "--token-file", token, "--json", "--count", "3");
            assertThat(lines(workers[1])).hasSize(3);
        } finally {
            Object[] r = sonde("resume", address, "shop/stock/**", "--token-file", token);
            assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
            assertThat((String) r[1]).containsPattern("^resumed ([6-9]|1\\d) sensor\\(s\\)");
        }
        Object[] again = sonde("watch", address, "shop/stock/**", "--token-file", token, "--json", "--count", "5");
        assertThat(again[0]).isEqualTo(0);
        assertThat(lines(again[1])).hasSize(5);
    }

    @Test
    void plainWatchPrintsOneLinePerEvent() {
        Object[] r = sonde("watch", address, "shop/orders", "--token-file", token, "--count", "4");
        assertThat(r[0]).as("%s", r[2]).isEqualTo(0);
        assertThat(lines(r[1])).hasSize(4).allMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  shop/orders  [+-] shop/orders/\\d+"));
    }

    @Test
    void wrongTokenUnreadableOrMissingTokenFileAreClearFailures() throws IOException {
        Path wrong = dir.resolve("wrong.token");
        Files.writeString(wrong, "not-the-token\n");
        Files.setPosixFilePermissions(wrong, PosixFilePermissions.fromString("rw-------"));
        Object[] r = sonde("ls", address, "--token-file", wrong.toString());
        assertThat(r[0]).isEqualTo(1);
        assertThat((String) r[2]).startsWith("sonde ls: " + address + " refused the token in " + wrong).doesNotContain("\tat ");
        assertThat(lines(r[2])).hasSize(1);

        Path open = dir.resolve("open.token");
        Files.writeString(open, "x\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        Object[] o = sonde("get", address + "/shop", "--token-file", open.toString());
        assertThat(o[0]).isEqualTo(1);
        assertThat((String) o[2]).contains("chmod 600");

        Object[] m = sonde("watch", address, "shop/**", "--token-file", dir.resolve("missing").toString());
        assertThat(m[0]).isEqualTo(1);
        assertThat((String) m[2]).contains("missing: no such file");
    }

    @Test
    void badAddressesRefusedConnectionsAndUnknownPaths() throws IOException {
        Object[] noPort = sonde("ls", "localhost", "--token-file", token);
        assertThat(noPort[0]).isEqualTo(2);
        assertThat((String) noPort[2]).contains("expected HOST:PORT");
        assertThat(sonde("get", "127.0.0.1:99999/x", "--token-file", token)[0]).isEqualTo(2);
        assertThat(sonde("watch", address + "/shop", "x", "--token-file", token)[0]).isEqualTo(2);
        assertThat(sonde("get", address, "--token-file", token)[0]).isEqualTo(2); // no path

        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Object[] refused = sonde("ls", "127.0.0.1:" + closed, "--token-file", token);
        assertThat(refused[0]).isEqualTo(1);
        assertThat((String) refused[2]).contains("cannot connect to 127.0.0.1:" + closed + ": connection refused");

        Object[] unknown = sonde("get", address + "/shop/nothing", "--token-file", token);
        assertThat(unknown[0]).isEqualTo(1);
        assertThat((String) unknown[2]).contains("no object or attribute at path 'shop/nothing'");
        Object[] unknownLs = sonde("ls", address + "/shop/nothing", "--token-file", token);
        assertThat(unknownLs[0]).isEqualTo(1);
        assertThat((String) unknownLs[2]).contains("no object or attribute at path 'shop/nothing'");
        Object[] badPattern = sonde("watch", address, "shop/**x", "--token-file", token, "--count", "1");
        assertThat(badPattern[0]).as("%s", badPattern[2]).isEqualTo(2);
    }

    @Test
    void qosOptionsThatDoNotGoTogetherAreUsageErrors() {
        List<String[]> bad = new ArrayList<>();
        bad.add(new String[] {"--batch", "5", "--period", "1s"});
        bad.add(new String[] {"--latest"});
        bad.add(new String[] {"--flush", "1s"});
        bad.add(new String[] {"--batch", "0"});
        bad.add(new String[] {"--period", "fast"});
        bad.add(new String[] {"--period", "0ms"});
        bad.add(new String[] {"--count", "1", "--seconds", "1"});
        for (String[] options : bad) {
            List<String> args = new ArrayList<>(List.of("watch", address, "shop/**", "--token-file", token));
            args.addAll(List.of(options));
            Object[] r = sonde(args.toArray(new String[0]));
            assertThat(r[0]).as("%s: %s", Arrays.toString(options), r[2]).isEqualTo(2);
            assertThat(lines(r[2])).hasSize(1);
        }
    }

    @Test
    void lsProbesWithoutAnAgentSaysWhyAndItsBadOptionsAreUsageErrors() {
        Object[] none = sonde("ls-probes", address, "--token-file", token);
        assertThat(none[0]).as("%s", none[2]).isEqualTo(1);
        assertThat(lines(none[2])).hasSize(1);
        assertThat((String) none[2]).contains(address + " has no method probes to list (no Sonde agent in that process)");
        assertThat(sonde("ls-probes", address, "--token-file", token, "--limit", "-1")[0]).isEqualTo(2);
        assertThat(sonde("ls-probes", address, "--token-file", token, "--all", "--offset", "3")[0]).isEqualTo(2);
        assertThat(sonde("ls-probes", address, " ", "--token-file", token)[0]).isEqualTo(2);
        assertThat(sonde("ls-probes", address + "/shop", "--token-file", token)[0]).as("a path is not a probe pattern").isEqualTo(2);
    }
}
